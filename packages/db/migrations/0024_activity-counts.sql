CREATE TABLE "activity_counts" (
	"day" date NOT NULL,
	"activity" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "activity_counts_day_activity_pk" PRIMARY KEY("day","activity")
);
