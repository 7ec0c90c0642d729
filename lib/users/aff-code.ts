// Invitation codes: random, unique (the column has a unique index). 8 characters over 62
// symbols make a collision improbable; callers retry on the rare unique violation.
import "server-only";
import { randomAlnum } from "@/lib/auth/lookup-hash";

export const AFF_CODE_LENGTH = 8;
export const newAffCode = () => randomAlnum(AFF_CODE_LENGTH);
