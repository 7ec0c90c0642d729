// Which addresses an account may use (docs/accounts-api.md, "E-mail addresses"): a valid
// address; with EmailDomainRestrictionEnabled only domains of EmailDomainWhitelist (exact,
// case-insensitive); with EmailAliasRestrictionEnabled no plus-addressing, and for Gmail no
// dotted variant of an address another account holds; and one account per address
// (compared lowercased). Checked wherever an address is accepted: the code request,
// registration and binding.
import "server-only";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { normalizeEmail, requireEmailAddress } from "@/lib/mail/address";
import { getBool, getOption } from "@/lib/options/store";

const GMAIL_DOMAINS = ["gmail.com", "googlemail.com"];

export const emailKey = (email: string): string | null => (email.trim() ? normalizeEmail(email) : null);

function split(email: string): { local: string; domain: string } {
  const at = email.lastIndexOf("@");
  return { local: email.slice(0, at), domain: email.slice(at + 1) };
}

export function whitelist(): string[] {
  return getOption("EmailDomainWhitelist")
    .split(",")
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
}

/** The option-driven rules that need no database: validity, whitelist, plus-addressing. */
export function checkEmailShape(rawEmail: string): string {
  const email = requireEmailAddress(rawEmail);
  const { local, domain } = split(email);
  if (getBool("EmailDomainRestrictionEnabled") && !whitelist().includes(domain)) throw new AppError("RULE", "email_domain_not_allowed");
  if (getBool("EmailAliasRestrictionEnabled") && local.includes("+")) throw new AppError("RULE", "email_alias_not_allowed");
  return email;
}

/**
 * Every rule, including those against other accounts: the address is not held by another
 * live account, nor (alias restriction on, Gmail) is a dotted variant of it. `selfId` is the
 * account that will hold it (binding), whose own address does not count.
 */
export async function checkEmailAvailable(rawEmail: string, selfId?: number): Promise<string> {
  const email = checkEmailShape(rawEmail);
  const holder = await db().user.findUnique({ where: { email_key: email }, select: { id: true } });
  if (holder && holder.id !== selfId) throw new AppError("RULE", "email_taken");
  const { local, domain } = split(email);
  if (getBool("EmailAliasRestrictionEnabled") && GMAIL_DOMAINS.includes(domain)) {
    // Gmail ignores dots in the local part and treats googlemail.com as gmail.com: compare the
    // keys with every dot removed (the domains' dots too, the same on both sides).
    const undotted = GMAIL_DOMAINS.map((d) => `${local.replace(/\./g, "")}@${d.replace(/\./g, "")}`);
    const rows = await db().$queryRaw<
      { id: number }[]
    >`SELECT "id" FROM "users" WHERE ("email_key" LIKE '%@gmail.com' OR "email_key" LIKE '%@googlemail.com') AND replace("email_key", '.', '') IN (${undotted[0]}, ${undotted[1]})`;
    if (rows.some((r) => Number(r.id) !== selfId)) throw new AppError("RULE", "email_alias_not_allowed");
  }
  return email;
}
