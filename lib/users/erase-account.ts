// What deregistering an account (DELETE /api/user/self, or an admin's manage "delete") does
// to its data, inside the caller's transaction (docs/accounts-api.md, "Deregistration"):
// the row stays, with its id, balance and usage counters, so that the quota ledger and the
// usage logs still add up; everything that names or reaches the person goes. The username
// becomes a tombstone longer than any registrable name, so the old name is free again and
// the tombstone can never collide with a real account.
import "server-only";
import { logDb, logsSeparate, type Tx } from "@/lib/db/client";
import { afterLogCommit } from "@/lib/logs/in-transaction";
import { resummarizeUser } from "@/lib/rollups/maintain";
import { TOKEN_STATUS } from "@/lib/statuses";

export const tombstoneUsername = (id: number) => `deleted-user-${id}`;
// Not a scrypt hash: verifyPassword (lib/auth/password.ts) refuses it for every password,
// and its password version differs from any session's, so every session ends.
const UNUSABLE_PASSWORD = "!deregistered";

export async function eraseAccount(tx: Tx, id: number, now: bigint): Promise<void> {
  const username = tombstoneUsername(id);
  await tx.user.update({
    where: { id },
    data: {
      username,
      password: UNUSABLE_PASSWORD,
      display_name: "",
      email: "",
      email_key: null,
      github_id: "",
      oidc_id: "",
      wechat_id: "",
      telegram_id: "",
      linux_do_id: "",
      idc_flare_id: "",
      access_token_hash: null,
      setting: "",
      remark: "",
    },
  });
  // The second factors go with the person (docs/two-factor.md).
  await tx.twoFactor.deleteMany({ where: { user_id: id } });
  await tx.passkey.deleteMany({ where: { user_id: id } });
  // The keys stop working; the rows stay (soft-deleted) because logs and the ledger cite their ids.
  await tx.token.updateMany({ where: { user_id: id, deleted_at: null }, data: { deleted_at: now, status: TOKEN_STATUS.disabled } });
  // Logs keep user_id and the figures; the name and address they carried are the person's.
  // Renaming them also keeps a later account of the same name from inheriting this history
  // in the admin's username filter.
  // (in this transaction, or right after it on a log database of their own: lib/logs/in-transaction.ts)
  const renameLogs = async (ltx: Tx) => {
    await ltx.log.updateMany({ where: { user_id: id }, data: { username, ip: "" } });
    await resummarizeUser(ltx, id); // the hourly rollups carry the logs' username (docs/dashboard.md)
  };
  if (!logsSeparate()) await renameLogs(tx);
  else afterLogCommit(tx, () => logDb().$transaction(renameLogs, { maxWait: 30_000, timeout: 10 * 60_000 }));
}
