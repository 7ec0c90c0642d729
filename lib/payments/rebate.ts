// The inviter's rebate on a paid top-up (docs/payments.md, "Rebates"): floor(quota ×
// percentage / 100) in integers. The percentage may carry decimals (12.5); four places are kept.
export function rebateOf(quota: bigint, percentage: number): bigint {
  if (!Number.isFinite(percentage) || percentage <= 0 || quota <= 0n) return 0n;
  const scaled = BigInt(Math.round(Math.min(percentage, 100) * 10_000));
  return (quota * scaled) / 1_000_000n;
}
