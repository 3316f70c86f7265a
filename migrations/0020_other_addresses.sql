CREATE TABLE `other_addresses` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`address` text NOT NULL,
	`token_hash` text NOT NULL,
	`sent_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`confirmed_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `other_addresses_user_address_idx` ON `other_addresses` (`user_id`,`address`);--> statement-breakpoint
CREATE UNIQUE INDEX `other_addresses_token_idx` ON `other_addresses` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `other_addresses_confirmed_idx` ON `other_addresses` (`address`) WHERE confirmed_at is not null;--> statement-breakpoint
CREATE INDEX `other_addresses_expires_idx` ON `other_addresses` (`expires_at`);