CREATE TABLE `openid4vci_grants` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`user_id` text,
	`exchange_id` text,
	`credential_id` text,
	`code` text,
	`tx_code` text,
	`tx_attempts` integer DEFAULT 0 NOT NULL,
	`holder` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`exchange_id`) REFERENCES `wallet_exchanges`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`credential_id`) REFERENCES `credentials`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "openid4vci_grants_kind_check" CHECK(kind in ('offer', 'token', 'nonce'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `openid4vci_grants_code_idx` ON `openid4vci_grants` (`code`);--> statement-breakpoint
CREATE INDEX `openid4vci_grants_exchange_idx` ON `openid4vci_grants` (`exchange_id`);--> statement-breakpoint
CREATE INDEX `openid4vci_grants_expires_idx` ON `openid4vci_grants` (`expires_at`);