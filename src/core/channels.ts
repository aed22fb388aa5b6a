// "Over" before a transport names the channel something runs on ("subscriptions over SSE", "push blocks over gRPC",
// "send it over the network"), not a rival it was preferred to ("Postgres over MySQL"). Shared by the question
// grammar and the decision model's prose reading so both read "over" the same way.

/** Protocols and transports, as one lower-case word without punctuation ("http2" for "HTTP/2"). */
const CHANNELS = new Set(["grpc", "http", "https", "http2", "tcp", "udp", "ssh", "tls", "ssl", "websocket", "websockets", "sse", "rest", "rpc", "amqp", "mqtt", "vpn", "sftp", "ftp", "nfs", "smb", "email", "wifi", "bluetooth", "ipc", "quic"]);
/** Nouns that name a channel after an article ("over the network", "over a queue"). */
const CHANNEL_NOUNS = new Set(["network", "wire", "internet", "channel", "socket", "connection", "bus", "link", "tunnel", "api", "queue", "stream", "protocol", "line"]);

/** Whether the words after "over" name a channel: a protocol, or an article and a channel noun. */
export function overAChannel(next: string, afterNext = ""): boolean {
  const word = next.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (CHANNELS.has(word)) return true;
  return /^(?:a|an|the|our|its)$/i.test(next) && CHANNEL_NOUNS.has(afterNext.toLowerCase().replace(/[^a-z]/g, ""));
}
