/** Polls until a channel has delivered everything; sends are rare and short when this is used. */
export async function waitForDrain(channel: { readonly pending: number }, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (channel.pending > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
}
