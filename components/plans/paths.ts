// The plan API's paths (docs/plans.md, "Interface").
export const PLANS_FOR_SALE = "/api/plans";
export const ADMIN_PLANS = "/api/plan/";
export const MY_PLANS = "/api/user/plan";
export const PURCHASE = "/api/user/plan/purchase";
export const PREFERENCE = "/api/user/plan/preference";
export const CANCEL = (subscriptionId: number) => `/api/user/plan/${subscriptionId}/cancel`;
export const planPath = (id: number) => `/api/plan/${id}`;
export const planSubscribers = (id: number, status: "active" | "all") => `/api/plan/${id}/subscribers?status=${status}`;
export const grantPath = (userId: number) => `/api/user/${userId}/plan`;
export const subscriptionPath = (userId: number, subscriptionId: number) => `/api/user/${userId}/plan/${subscriptionId}`;
export const resetPath = (userId: number, subscriptionId: number) => `/api/user/${userId}/plan/${subscriptionId}/reset`;
