ALTER TABLE `profiles` ADD `search_indexing` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `profiles` ADD `recognition_emails` integer DEFAULT true NOT NULL;