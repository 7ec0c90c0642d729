// The shapes of the top-up calls (lib/payments/order-view.ts).
export type TopUpOrder = {
  id: number;
  user_id: number;
  amount: number;
  money: number;
  currency: string;
  trade_no: string;
  payment_method: string;
  provider: string;
  status: "pending" | "success" | "failed";
  create_time: number;
  complete_time: number;
  completed_by: string;
  top_up_code: string;
  username?: string; // root's list only
  paid_money?: string; // root's list only: what the provider reported as paid
};
export type TopUpPage = { items: TopUpOrder[]; total: number; page: number; page_size: number };
export type PayMethod = "zfb" | "wx" | "stripe";
