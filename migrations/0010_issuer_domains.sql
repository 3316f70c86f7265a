-- Issue 29 (decisions 054 and 055): the domains organisations prove with a DNS TXT record, the name keys
-- that show an organisation named like a verified issuer as "Name not verified", the local
-- stand-ins for DNS and the web that development and tests read instead of the network, and the
-- retirement of a compromised credential key version.
CREATE TABLE `dev_dns_records` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dev_dns_records_name_idx` ON `dev_dns_records` (`name`,`type`);--> statement-breakpoint
CREATE TABLE `dev_web_documents` (
	`url` text PRIMARY KEY NOT NULL,
	`content_type` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `organization_domains` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`domain` text NOT NULL,
	`token` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`verified_at` integer,
	`last_checked_at` integer,
	`name_key` text,
	`failed_checks` integer DEFAULT 0 NOT NULL,
	`next_check_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "organization_domains_status_check" CHECK(status in ('pending', 'verified', 'lapsed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organization_domains_org_domain_idx` ON `organization_domains` (`organization_id`,`domain`);--> statement-breakpoint
CREATE UNIQUE INDEX `organization_domains_verified_idx` ON `organization_domains` (`domain`) WHERE status = 'verified';--> statement-breakpoint
CREATE INDEX `organization_domains_due_idx` ON `organization_domains` (`next_check_at`) WHERE status = 'verified';--> statement-breakpoint
CREATE INDEX `organization_domains_name_key_idx` ON `organization_domains` (`name_key`) WHERE status = 'verified';--> statement-breakpoint
ALTER TABLE `organization_keys` ADD `retired_at` integer;--> statement-breakpoint
ALTER TABLE `organizations` ADD `name_key` text;