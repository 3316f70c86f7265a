import { data } from "@remix-run/cloudflare";
import { checkImport, IMPORT_REFUSED } from "#app/services/imports/imported-credentials.server.ts";
import type { ImportSource } from "#app/services/imports/read-input.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { importCheckSchema } from "#app/utils/form-schemas.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const CHOOSE = "Choose a badge file or paste its JSON, JWT or address.";

/** Checks a chosen file or pasted text and shows each check; nothing is added to the passport. */
export const checkImportIntent = defineIntent<Viewer, typeof importCheckSchema>({
  schema: importCheckSchema,
  failureTitle: IMPORT_REFUSED,
  run: async ({ source }, { context, viewer, fields }) => {
    const file = fields.get("file");
    const chosen: ImportSource | null =
      file instanceof File && file.size > 0
        ? { kind: "file", bytes: new Uint8Array(await file.arrayBuffer()), fileName: file.name, contentType: file.type }
        : source
          ? { kind: "text", text: source }
          : null;
    if (!chosen) {
      throw new Refusal({ title: IMPORT_REFUSED, description: CHOOSE }, 400, { source: [CHOOSE] });
    }
    const { outcome, nonce, issuerIdentity } = await checkImport(context, viewer, chosen);
    return data({ checked: outcome, nonce, issuerIdentity, source: source ?? "" });
  },
});
