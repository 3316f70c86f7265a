DROP INDEX `achievements_user_status_date_idx`;--> statement-breakpoint
DROP INDEX `achievements_org_created_idx`;--> statement-breakpoint
CREATE INDEX `achievements_user_status_created_idx` ON `achievements` (`user_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `achievements_user_status_date_idx` ON `achievements` (`user_id`,`status`,`date`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `achievements_org_created_idx` ON `achievements` (`organization_id`,`created_at`,`id`);--> statement-breakpoint
DROP INDEX `notifications_user_created_idx`;--> statement-breakpoint
CREATE INDEX `notifications_user_created_idx` ON `notifications` (`user_id`,`created_at`,`id`);