// Shapes of the admin message calls (lib/messages/*.ts).
export type AdminMessage = {
  id: number;
  title: string;
  content: string;
  format: string;
  created_at: number;
  stats: { total_recipients: number; read_count?: number };
};
export type MessagePage = { items: AdminMessage[]; total: number; page: number; page_size: number };
export type Recipient = { user_id: number; username: string; display_name: string; read_at: number | null; is_read: boolean };
export type RecipientPage = { items: Recipient[]; total: number; page: number; page_size: number };
export type PickUser = { id: number; username: string; display_name: string; group: string; role: number };
export type UserPage = { items: PickUser[]; total: number; page: number; page_size: number };
