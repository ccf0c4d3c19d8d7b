// Sign out of the back office (issue 34): a plain form's post, sent on to POST /api/grocer/Authenticate/Logout in
// process; the API ends the session and clears the cookie, and its Set-Cookie goes back to the browser as it is.
import type { APIRoute } from 'astro';
import { grocerCall, seeOther } from '../../lib/server/manage.ts';
import { manageUrls } from '../../lib/urls.ts';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const res = await grocerCall(context, 'POST', 'grocer/Authenticate/Logout');
  return seeOther(`${manageUrls.signIn()}?out=1`, res.headers.getSetCookie());
};
