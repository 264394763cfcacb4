CREATE TABLE "loyalty_birthday_gifts" (
	"account_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"year" integer NOT NULL,
	"points" integer NOT NULL,
	"given_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loyalty_birthday_gifts_account_id_year_pk" PRIMARY KEY("account_id","year")
);
--> statement-breakpoint
ALTER TABLE "loyalty_campaigns" DROP CONSTRAINT "loyalty_campaigns_kind";--> statement-breakpoint
ALTER TABLE "loyalty_accounts" ADD COLUMN "birth_month" smallint;--> statement-breakpoint
ALTER TABLE "loyalty_accounts" ADD COLUMN "birth_day" smallint;--> statement-breakpoint
ALTER TABLE "loyalty_birthday_gifts" ADD CONSTRAINT "loyalty_birthday_gifts_account_id_loyalty_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."loyalty_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_birthday_gifts" ADD CONSTRAINT "loyalty_birthday_gifts_campaign_id_loyalty_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."loyalty_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "loyalty_accounts_birthday_index" ON "loyalty_accounts" USING btree ("birth_month","birth_day") WHERE "loyalty_accounts"."birth_month" is not null;--> statement-breakpoint
ALTER TABLE "loyalty_accounts" ADD CONSTRAINT "loyalty_accounts_birthday_valid" CHECK (("loyalty_accounts"."birth_month" is null and "loyalty_accounts"."birth_day" is null) or ("loyalty_accounts"."birth_month" between 1 and 12 and "loyalty_accounts"."birth_day" between 1 and
        case when "loyalty_accounts"."birth_month" = 2 then 29 when "loyalty_accounts"."birth_month" in (4, 6, 9, 11) then 30 else 31 end));--> statement-breakpoint
ALTER TABLE "loyalty_campaigns" ADD CONSTRAINT "loyalty_campaigns_kind" CHECK ("loyalty_campaigns"."kind" in ('multiplier', 'bonus', 'birthday'));