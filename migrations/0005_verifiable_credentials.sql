CREATE TABLE `credential_status_lists` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`next_index` integer DEFAULT 0 NOT NULL,
	`revision` integer DEFAULT 0 NOT NULL,
	`credential` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `credential_status_lists_org_idx` ON `credential_status_lists` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `credentials` (
	`id` text PRIMARY KEY NOT NULL,
	`achievement_id` text,
	`organization_id` text NOT NULL,
	`user_id` text,
	`status_list_id` text NOT NULL,
	`status_index` integer NOT NULL,
	`json` text,
	`issued_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`achievement_id`) REFERENCES `achievements`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`status_list_id`) REFERENCES `credential_status_lists`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credentials_achievement_idx` ON `credentials` (`achievement_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `credentials_status_idx` ON `credentials` (`status_list_id`,`status_index`);--> statement-breakpoint
CREATE INDEX `credentials_org_issued_idx` ON `credentials` (`organization_id`,`issued_at`);--> statement-breakpoint
CREATE INDEX `credentials_user_idx` ON `credentials` (`user_id`);--> statement-breakpoint
CREATE TABLE `organization_keys` (
	`organization_id` text NOT NULL,
	`version` integer NOT NULL,
	`public_key_multibase` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organization_keys_org_version_idx` ON `organization_keys` (`organization_id`,`version`);