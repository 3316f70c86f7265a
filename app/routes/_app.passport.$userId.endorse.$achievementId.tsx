import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import ArrowLeft from "lucide-react/icons/arrow-left";
import CircleCheck from "lucide-react/icons/circle-check";
import { FieldError, FormError } from "#app/components/form-messages.tsx";
import { TextareaField } from "#app/components/forms.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { ENDORSE_FAILURE_TITLE, endorse, readEndorsable } from "#app/services/endorsements.server.ts";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { withHttpErrors } from "#app/utils/form-reply.server.ts";
import type { FormReply } from "#app/utils/form-reply.ts";
import { AS_MYSELF, endorseSchema, ENDORSEMENT_MAX_LENGTH } from "#app/utils/form-schemas.ts";
import { endorseValidator } from "#app/utils/form-validators.ts";
import { defineIntent, runIntent } from "#app/utils/intent.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { useValidatedForm } from "#app/utils/use-validated-form.ts";
import type { Viewer } from "#app/utils/viewer.ts";

// Endorsing an achievement on someone else's public passport (issue 33, decision 072). The public
// page is cached for anonymous visitors and served without scripts, so it carries only a link
// here: this page is personal (who you may endorse as) and works with or without JavaScript.

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `Endorse ${data.title}` : "Endorse"} · ${PRODUCT_NAME}` },
];

const targetOf = (params: LoaderFunctionArgs["params"]) => ({
  ownerId: params.userId ?? "",
  achievementId: params.achievementId ?? "",
});

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const { target, identities } = await withHttpErrors(readEndorsable(context, viewer, targetOf(params)));
  return { ownerId: target.userId, ownerName: target.ownerName, title: target.title, identities };
}

const endorseIntent = defineIntent<Viewer, typeof endorseSchema>({
  schema: endorseSchema,
  failureTitle: ENDORSE_FAILURE_TITLE,
  async run({ as, comment }, { context, viewer, request }) {
    const target = targetOf(paramsOf(request));
    const { ownerName } = await endorse(context, viewer, { ...target, as, comment });
    return {
      toast: {
        title: "Endorsement sent",
        description: `${ownerName} will choose whether to show it on their passport.`,
      },
      redirectTo: new URL(request.url).pathname,
    };
  },
});

/** The route's params, read again from the URL (an intent is given the request, not the params). */
function paramsOf(request: Request) {
  const [, , userId, , achievementId] = new URL(request.url).pathname.split("/");
  return { userId, achievementId };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const fields = await request.formData();
  return runIntent(
    { request, context },
    { endorse: endorseIntent },
    {
      viewer,
      fields,
      back: `/passport/${params.userId}/endorse/${params.achievementId}`,
    },
  );
}

export default function EndorsePage() {
  const { ownerId, ownerName, title, identities } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const open = identities.filter((identity) => !identity.endorsed);
  const done = identities.filter((identity) => identity.endorsed);
  const { form, fields, formProps } = useValidatedForm({
    id: "endorse",
    validator: endorseValidator,
    actionData: reply,
    defaultValue: { as: open[0]?.value ?? AS_MYSELF, comment: "" },
  });
  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <div className="grid gap-2">
        <Link
          to={`/passport/${ownerId}`}
          reloadDocument
          className={buttonVariants({ variant: "ghost", size: "sm", className: "w-fit" })}
        >
          <ArrowLeft aria-hidden /> {ownerName}&apos;s passport
        </Link>
        <h1 className="text-3xl font-bold tracking-tight break-words">Endorse {title}</h1>
        <p className="text-muted-foreground">
          Vouch for this achievement of {ownerName}. Your endorsement is a signed credential anyone can verify;{" "}
          {ownerName} chooses whether it shows on their passport.
        </p>
      </div>
      {done.length > 0 ? (
        <ul className="grid gap-2" aria-label="Already endorsed">
          {done.map((identity) => (
            <li key={identity.value} className="flex items-center gap-2 text-sm">
              <CircleCheck className="size-4 shrink-0 text-primary" aria-hidden />
              {identity.value === AS_MYSELF ? "You endorsed it" : `${identity.name} endorsed it`}
            </li>
          ))}
        </ul>
      ) : null}
      {open.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-muted-foreground">
          There is nothing more to endorse here: every identity you can endorse as already has.
        </p>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle as="h2">Your endorsement</CardTitle>
            <CardDescription>Up to {ENDORSEMENT_MAX_LENGTH} characters.</CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" {...formProps} className="grid gap-4">
              {open.length > 1 ? (
                <div className="grid gap-2">
                  <Label htmlFor={fields.as.id}>Endorse as</Label>
                  <NativeSelect
                    id={fields.as.id}
                    name={fields.as.name}
                    defaultValue={fields.as.initialValue ?? open[0]!.value}
                    aria-invalid={fields.as.errors ? true : undefined}
                    aria-describedby={fields.as.errors ? fields.as.errorId : undefined}
                  >
                    {open.map((identity) => (
                      <option key={identity.value} value={identity.value}>
                        {identity.value === AS_MYSELF ? `Myself (${identity.name})` : identity.name}
                      </option>
                    ))}
                  </NativeSelect>
                  <FieldError id={fields.as.errorId} errors={fields.as.errors} />
                </div>
              ) : (
                <input type="hidden" name={fields.as.name} value={open[0]!.value} />
              )}
              <TextareaField
                field={fields.comment}
                label="What would you like to say?"
                rows={5}
                maxLength={ENDORSEMENT_MAX_LENGTH}
                placeholder="How you know this work, and what stood out"
              />
              <FormError errors={form.errors} />
              <SubmitButton intent="endorse" className="w-fit" pendingText="Endorsing...">
                Endorse
              </SubmitButton>
            </Form>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
