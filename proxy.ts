// Page redirects (docs/product-rules.md, "Accounts", page protection). The server still authorizes every
// /api call on its own; this only decides where a browser should land.
//   - until setup is done, every page goes to /setup; after it, /setup goes to /;
//   - protected pages without a valid session go to /login?returnTo=<path>;
//   - admin pages for a non-admin go to /.
import { NextResponse, type NextRequest } from "next/server";
import { isAdmin } from "@/lib/auth/roles";
import { ensureReady } from "@/lib/boot";
import { optionalSessionUser } from "@/lib/http/auth";
import { isSetupDone } from "@/lib/setup/state";

const PROTECTED = [/^\/app(\/|$)/, /^\/playground(\/|$)/, /^\/chat2link$/, /^\/user\/edit(\/|$)/, /^\/admin(\/|$)/, /^\/channel(\/|$)/];
const ADMIN = [/^\/admin(\/|$)/, /^\/channel(\/|$)/];

export async function proxy(request: NextRequest) {
  await ensureReady();
  const { pathname, search } = request.nextUrl;
  const setupDone = await isSetupDone();
  if (!setupDone && pathname !== "/setup") return NextResponse.redirect(new URL("/setup", request.url));
  if (setupDone && pathname === "/setup") return NextResponse.redirect(new URL("/", request.url));

  if (!PROTECTED.some((re) => re.test(pathname))) return NextResponse.next();
  const user = await optionalSessionUser(request.headers);
  if (!user) {
    const login = new URL("/login", request.url);
    login.searchParams.set("returnTo", pathname + search);
    return NextResponse.redirect(login);
  }
  if (ADMIN.some((re) => re.test(pathname)) && !isAdmin(user.role)) return NextResponse.redirect(new URL("/", request.url));
  return NextResponse.next();
}

export const config = {
  // Pages only: not the API, not Next's assets, not files with an extension (logo.png...).
  matcher: ["/((?!api/|_next/|v1/|v1beta/|pg/|.*\\.[a-zA-Z0-9]+$).*)"],
};
