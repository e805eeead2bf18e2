import type { Problem } from "./types.js";

/** A refusal from the service: its status, and the `code` and `detail` of its problem
 * details (RFC 9457). An answer without problem details gets the code `http_<status>`. */
export class DangerError extends Error {
  override readonly name = "DangerError";
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly problem: Problem | undefined;

  constructor(status: number, problem?: Problem, detail?: string) {
    const code = problem?.code ?? `http_${status}`;
    const text = problem?.detail ?? detail ?? "no problem details";
    super(`${status} ${code}: ${text}`);
    this.status = status;
    this.code = code;
    this.detail = text;
    this.problem = problem;
  }

  /** From an answer whose body, if it was JSON, the caller already read as `body`. */
  static fromBody(response: Response, body: unknown): DangerError {
    return new DangerError(response.status, asProblem(body), response.statusText);
  }

  /** From an answer whose body has not been read. */
  static async fromResponse(response: Response): Promise<DangerError> {
    const text = await response.text().catch(() => "");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return new DangerError(response.status, asProblem(body), text.slice(0, 200) || response.statusText);
  }
}

function asProblem(body: unknown): Problem | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { code, detail, status } = body as Record<string, unknown>;
  if (typeof code !== "string" || typeof detail !== "string" || typeof status !== "number") {
    return undefined;
  }
  return body as Problem;
}
