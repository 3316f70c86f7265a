-- Issue 43: who stands behind an imported credential's issuer name. Rows imported before this have
-- none of the three; the daily re-check fills them in, and until then the name shows as not verified.
ALTER TABLE `imported_credentials` ADD `issuer_domain` text;--> statement-breakpoint
ALTER TABLE `imported_credentials` ADD `issuer_organization_id` text;--> statement-breakpoint
ALTER TABLE `imported_credentials` ADD `issuer_name_key` text;
