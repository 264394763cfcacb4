CREATE TABLE "spent_privacy_links" (
	"link_id" uuid PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
