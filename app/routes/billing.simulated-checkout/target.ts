import { z } from "zod";

/** The checkout's subject, in its link and in its form: the organisation and the member subscribed. */
export const target = z.object({ organizationId: z.uuid(), memberUserId: z.uuid() });
