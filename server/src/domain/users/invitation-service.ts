/**
 * Invitations: an administrator makes a one-time link (`/invite/<token>`, the token is 256
 * random bits and only its SHA-256 is stored) carrying the role and grant the new user gets.
 * Accepting it takes the invitation with one guarded UPDATE (unused and unexpired) in the same
 * transaction that creates the user, so a link signs up one user however many use it at once,
 * and a name already taken gives the link back.
 */
import { randomUUID } from "node:crypto";
import {
  type AcceptInvitationRequest,
  type AdminLogin,
  acceptInvitationRequest,
  type CreatedInvitation,
  type CreateInvitationRequest,
  createInvitationRequest,
  type InvitationDto,
  type Role,
} from "@clipshare/shared";
import { hashPassword } from "../../auth/passwords";
import { RATE_LIMITS, type RateLimiter } from "../../auth/rate-limiter";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { InvitationRow, UserRow } from "../../db/schema";
import { notFound } from "../../errors";
import { randomToken, sha256Hex } from "../../lib/crypto";
import type { AccountService, SignInContext } from "./account-service";
import { roleOf } from "./principals";
import { storedGrant, type UserService } from "./user-service";

const invitationInvalid = () =>
  notFound("This invitation link is invalid, used or expired", "invitation_invalid");

export class InvitationService {
  constructor(
    private readonly db: Db,
    private readonly users: UserService,
    private readonly accounts: AccountService,
    private readonly limiter: RateLimiter,
  ) {}

  async create(input: CreateInvitationRequest, createdBy: string): Promise<CreatedInvitation> {
    const data = createInvitationRequest.parse(input);
    const token = randomToken(32);
    const now = new Date();
    const grant = storedGrant(data.role, data.permissions, data.base_path);
    const row: InvitationRow = {
      id: randomUUID(),
      token_hash: sha256Hex(token),
      role: data.role,
      permissions: grant.permissions,
      base_path: grant.base_path,
      note: data.note ?? null,
      created_by: createdBy,
      expires_at: new Date(now.getTime() + data.expires_in_hours * 3600_000).toISOString(),
      accepted_by: null,
      accepted_at: null,
      created_at: nowIso(now),
    };
    await this.db.insertInto("user_invitations").values(row).execute();
    return { ...toDto(row), token, path: `/invite/${token}` };
  }

  async list(): Promise<InvitationDto[]> {
    const rows = await this.db
      .selectFrom("user_invitations")
      .selectAll()
      .orderBy("created_at", "desc")
      .limit(500)
      .execute();
    return rows.map(toDto);
  }

  async revoke(id: string): Promise<void> {
    const result = await this.db.deleteFrom("user_invitations").where("id", "=", id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0)
      throw notFound("Invitation does not exist", "invitation_not_found");
  }

  /** What the sign-up page shows. Wrong tokens count against the address like wrong keys. */
  async preview(
    token: string,
    clientIp: string,
  ): Promise<{ role: Role; expires_at: string; note: string | null }> {
    const row = await this.usable(token, clientIp);
    return { role: roleOf(row.role), expires_at: row.expires_at, note: row.note };
  }

  /** Signs the new user up and in: the answer is a session, as a sign-in gives. */
  async accept(token: string, input: AcceptInvitationRequest, from: SignInContext): Promise<AdminLogin> {
    const data = acceptInvitationRequest.parse(input);
    const invitation = await this.usable(token, from.clientIp);
    const passwordHash = await hashPassword(data.password);
    const now = nowIso();
    const user: UserRow = {
      id: randomUUID(),
      username: data.username,
      password_hash: passwordHash,
      role: invitation.role,
      display_name: data.display_name ?? null,
      disabled: 0,
      permissions: invitation.permissions,
      base_path: invitation.base_path,
      quota_bytes: null,
      email: null,
      last_login_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.db.transaction().execute(async (trx) => {
      const taken = await trx
        .updateTable("user_invitations")
        .set({ accepted_at: now })
        .where("id", "=", invitation.id)
        .where("accepted_at", "is", null)
        .where("expires_at", ">", now)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0) throw invitationInvalid();
      await this.users.insert(trx, user);
      await trx
        .updateTable("user_invitations")
        .set({ accepted_by: user.id })
        .where("id", "=", invitation.id)
        .execute();
    });
    return this.accounts.startSession(user, from);
  }

  private async usable(token: string, clientIp: string): Promise<InvitationRow> {
    const row = await this.limiter.attemptCountingFailures(RATE_LIMITS.apiKey, { clientIp }, async () => {
      if (!token || token.length > 100) return null;
      return (
        (await this.db
          .selectFrom("user_invitations")
          .selectAll()
          .where("token_hash", "=", sha256Hex(token))
          .executeTakeFirst()) ?? null
      );
    });
    if (!row || row.accepted_at !== null || row.expires_at <= nowIso()) throw invitationInvalid();
    return row;
  }
}

function toDto(row: InvitationRow): InvitationDto {
  const status = row.accepted_at !== null ? "accepted" : row.expires_at <= nowIso() ? "expired" : "pending";
  return {
    id: row.id,
    role: roleOf(row.role),
    permissions: row.permissions,
    base_path: row.base_path,
    note: row.note,
    created_by: row.created_by,
    expires_at: row.expires_at,
    accepted_at: row.accepted_at,
    accepted_by: row.accepted_by,
    created_at: row.created_at,
    status,
  };
}
