import { ROWS } from "./rows.ts";
import { describeMatrix } from "./suite.ts";

// Every action intent (and Hono POST route) of the authorization matrix, for every caller.
describeMatrix(ROWS.filter((row) => row.kind === "action"));
