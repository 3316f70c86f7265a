CREATE TABLE `membership_removals` (
	`user_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `organization_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
DROP INDEX `organization_members_org_status_requested_idx`;--> statement-breakpoint
CREATE INDEX `organization_members_org_status_requested_idx` ON `organization_members` (`organization_id`,`status`,`requested_at`,`id`);--> statement-breakpoint
-- Hand-edited (decision 023): SQLite adds a NOT NULL column only with a default, and every
-- existing organisation gets its own random code (the app never writes the empty default).
ALTER TABLE `organizations` ADD `invite_code` text NOT NULL DEFAULT '';
--> statement-breakpoint
UPDATE `organizations` SET `invite_code` = lower(hex(randomblob(16))) WHERE `invite_code` = '';