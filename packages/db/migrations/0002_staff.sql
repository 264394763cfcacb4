CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"team_member_guid" uuid,
	"username" text,
	"action" text NOT NULL,
	"resource" text NOT NULL,
	"record_id" text,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "permissions" (
	"guid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"api" text,
	"method" text,
	"minimum_access_level" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "permissions_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "staff_sessions" (
	"guid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_member_guid" uuid NOT NULL,
	"start_timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"end_timestamp" timestamp with time zone NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"access_token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_sessions_accessTokenHash_unique" UNIQUE("access_token_hash")
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"guid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"internal_id" text NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"description" text,
	"access_level" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD CONSTRAINT "staff_sessions_team_member_guid_team_members_guid_fk" FOREIGN KEY ("team_member_guid") REFERENCES "public"."team_members"("guid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at_index" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_resource_record_id_index" ON "audit_log" USING btree ("resource","record_id");--> statement-breakpoint
CREATE INDEX "permissions_api_method_index" ON "permissions" USING btree ("api","method");--> statement-breakpoint
CREATE INDEX "staff_sessions_team_member_guid_index" ON "staff_sessions" USING btree ("team_member_guid");--> statement-breakpoint
CREATE UNIQUE INDEX "team_members_username_lower_index" ON "team_members" USING btree (lower("username"));