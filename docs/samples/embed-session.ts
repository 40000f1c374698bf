// Your back office mints a short-lived console session for one of your customers, then hands
// its token to the page that embeds <ops-console audience="customer">.
export interface EmbedSession {
  token: string;
  expiresAt: string;
  customerId: string;
  views: string[] | null;
}

export async function embedSession(consoleUrl: string, adminKey: string, customerId: string): Promise<EmbedSession> {
  const response = await fetch(`${consoleUrl}/admin/v1/embed-sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ customerId, expiresInSeconds: 900 }),
  });
  if (!response.ok) throw new Error(`The console refused the session: ${response.status} ${await response.text()}`);
  return (await response.json()) as EmbedSession;
}
