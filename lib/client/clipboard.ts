import { toast } from "@/lib/client/toast";

// Copies text and reports the outcome; a browser that refuses is asked to copy by hand.
export async function copyText(text: string, successKey: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success({ key: successKey });
    return true;
  } catch {
    toast.warning({ key: "common.copyFailed" });
    return false;
  }
}
