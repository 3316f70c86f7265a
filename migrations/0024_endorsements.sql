CREATE TABLE `endorsements` (
	`id` text PRIMARY KEY NOT NULL,
	`achievement_id` text NOT NULL,
	`owner_id` text NOT NULL,
	`endorser_id` text,
	`endorser_organization_id` text,
	`endorser_name` text NOT NULL,
	`comment` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`credential` text NOT NULL,
	`created_at` integer NOT NULL,
	`decided_at` integer,
	FOREIGN KEY (`achievement_id`) REFERENCES `achievements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`endorser_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "endorsements_status_check" CHECK(status in ('pending', 'shown', 'hidden'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `endorsements_person_idx` ON `endorsements` (`achievement_id`,`endorser_id`) WHERE endorser_organization_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX `endorsements_organization_idx` ON `endorsements` (`achievement_id`,`endorser_organization_id`) WHERE endorser_organization_id is not null;--> statement-breakpoint
CREATE INDEX `endorsements_owner_idx` ON `endorsements` (`owner_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `endorsements_achievement_idx` ON `endorsements` (`achievement_id`,`status`);--> statement-breakpoint
CREATE INDEX `endorsements_endorser_idx` ON `endorsements` (`endorser_id`,`created_at`);