import { Form } from "@remix-run/react";
import FileUp from "lucide-react/icons/file-up";
import { FieldError, FormError } from "#app/components/form-messages.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { useHydrated } from "#app/utils/use-hydrated.ts";

/** Import history's first step: the LinkedIn export or JSON Resume to read (decision 067). */
export function ChooseHistoryFile({ errors, formErrors }: { errors?: string[]; formErrors?: string[] | null }) {
  const hydrated = useHydrated();
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Choose a file</CardTitle>
        <CardDescription>
          Your LinkedIn data export (on LinkedIn: Settings &amp; Privacy, Data privacy, Get a copy of your data): the
          ZIP LinkedIn e-mails you, or its Positions.csv, Certifications.csv, Honors.csv, Courses.csv and Education.csv.
          Or a JSON Resume (resume.json). Up to 5 MB.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" encType="multipart/form-data" className="grid gap-3">
          <input
            type="hidden"
            name="timeZone"
            value={hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : ""}
          />
          <div className="grid gap-2">
            <Label htmlFor="history-file">LinkedIn export or JSON Resume</Label>
            <Input
              id="history-file"
              name="file"
              type="file"
              multiple
              required
              accept=".zip,.csv,.json,application/zip,text/csv,application/json"
              aria-invalid={errors?.length ? true : undefined}
              aria-describedby="history-file-error"
            />
            <FieldError id="history-file-error" errors={errors} />
          </div>
          <FormError errors={formErrors ?? undefined} />
          <div>
            <SubmitButton intent="read-history" pendingText="Reading...">
              <FileUp aria-hidden /> Read file
            </SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
