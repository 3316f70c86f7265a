ALTER TABLE `achievements` ADD `membership_organization_id` text;--> statement-breakpoint
ALTER TABLE `achievements` ADD `membership_role` text;--> statement-breakpoint
ALTER TABLE `achievements` ADD `membership_ended_on` text;--> statement-breakpoint
ALTER TABLE `achievements` ADD `membership_sign_due` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `achievements_open_membership_idx` ON `achievements` (`membership_organization_id`,`user_id`) WHERE membership_organization_id is not null and membership_ended_on is null;--> statement-breakpoint
CREATE INDEX `achievements_membership_sign_due_idx` ON `achievements` (`membership_organization_id`) WHERE membership_sign_due = 1;--> statement-breakpoint
ALTER TABLE `credentials` ADD `superseded_by` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `membership_credentials` integer DEFAULT true NOT NULL;--> statement-breakpoint
-- Deleting an organisation ends its members' entries that day, in the statement that deletes it
-- (one indexed UPDATE however many members); the cron signs their dated credentials in bounded
-- batches (decision 070).
CREATE TRIGGER `organizations_end_membership_entries` AFTER DELETE ON `organizations` BEGIN
  UPDATE `achievements` SET `membership_ended_on` = strftime('%Y-%m-%d', 'now'), `membership_sign_due` = 1
    WHERE `membership_organization_id` = old.`id` AND `membership_ended_on` IS NULL;
END;
