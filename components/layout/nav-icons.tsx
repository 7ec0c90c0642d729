// The sidebar's icons, by navigation key (lib/client/navigation.ts names the entries; lib/ does
// not import components/, so the mapping lives here). A chat configured by the admin
// (`chat:<name>`) and any key not listed get the generic chat / dot icon.
import {
  BookOpen,
  CircleDot,
  FlaskConical,
  Image,
  KeyRound,
  Layers,
  LayoutDashboard,
  ListTodo,
  Receipt,
  Mail,
  MessagesSquare,
  Network,
  ScrollText,
  Settings,
  ShieldCheck,
  Ticket,
  UserRound,
  Users,
  Wallet,
  type LucideIcon,
} from "lucide-react";

export const NAV_ICONS: Record<string, LucideIcon> = {
  playground: FlaskConical,
  dashboard: LayoutDashboard,
  tokens: KeyRound,
  usageLogs: ScrollText,
  drawingLogs: Image,
  taskLogs: ListTodo,
  apiDocs: BookOpen,
  channels: Network,
  redemptions: Ticket,
  plans: Layers,
  topups: Receipt,
  audit: ShieldCheck,
  messages: Mail,
  users: Users,
  settings: Settings,
  wallet: Wallet,
  me: UserRound,
};

export function navIcon(key: string): LucideIcon {
  if (key.startsWith("chat:")) return MessagesSquare;
  return NAV_ICONS[key] ?? CircleDot;
}
