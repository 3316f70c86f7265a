import { Form } from "@remix-run/react";
import Download from "lucide-react/icons/download";
import FileText from "lucide-react/icons/file-text";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";

/** Downloads: a full export (a POST: it is rate limited) and the résumé file on its own. */
export function YourData() {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Your Data</CardTitle>
        <CardDescription>
          Take everything with you: your profile, achievements, memberships, notifications, feedback and files, in one
          ZIP file. The résumé is in the JSON Resume format that many CV tools import.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-3">
        {/* A full document submission, so the browser saves the file, with or without JavaScript. */}
        <Form method="post" action="/settings/export" reloadDocument>
          <Button type="submit">
            <Download aria-hidden /> Download my data
          </Button>
        </Form>
        <a href="/settings/resume.json" download className={buttonVariants({ variant: "outline" })}>
          <FileText aria-hidden /> Download résumé (JSON)
        </a>
      </CardContent>
    </Card>
  );
}
