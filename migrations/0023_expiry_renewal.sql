ALTER TABLE `achievements` ADD `valid_until` text;--> statement-breakpoint
ALTER TABLE `achievements` ADD `renews_achievement_id` text;--> statement-breakpoint
ALTER TABLE `achievements` ADD `renewal_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `achievements` ADD `first_given_on` text;--> statement-breakpoint
ALTER TABLE `achievements` ADD `renewed_by` text;--> statement-breakpoint
ALTER TABLE `achievements` ADD `expiry_reminded_days` integer;--> statement-breakpoint
CREATE INDEX `achievements_expiry_idx` ON `achievements` (`valid_until`,`id`) WHERE valid_until is not null and status = 'accepted' and renewed_by is null;--> statement-breakpoint
CREATE INDEX `achievements_org_valid_until_idx` ON `achievements` (`organization_id`,`valid_until`,`id`) WHERE valid_until is not null and status = 'accepted' and renewed_by is null;--> statement-breakpoint
CREATE UNIQUE INDEX `achievements_renews_idx` ON `achievements` (`renews_achievement_id`) WHERE renews_achievement_id is not null and status != 'rejected';