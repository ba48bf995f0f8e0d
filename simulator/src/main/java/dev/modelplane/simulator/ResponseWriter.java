package dev.modelplane.simulator;

import io.vertx.core.Context;
import io.vertx.core.http.HttpServerResponse;

/**
 * Writes one completion's response as the engine produces it: SSE chunks (OpenAI's {@code chat.completion.chunk}
 * and {@code text_completion} shapes, vLLM's field order) or, when not streaming, one JSON body at the end. The
 * engine thread only records progress; the request's event loop builds and writes the chunks. All writers of one
 * event loop share an {@link Outbox}, so a decode step of thousands of sequences costs one hand-off per loop, not
 * one per token.
 */
final class ResponseWriter extends EventWriter {
  /** Writers of one event loop with output to write, drained by one task on that loop. */
  static final class Outbox {
    private static final java.util.concurrent.ConcurrentHashMap<Context, Outbox> BY_CONTEXT =
        new java.util.concurrent.ConcurrentHashMap<>();
    private final Context ctx;
    private final java.util.concurrent.ConcurrentLinkedQueue<Runnable> work =
        new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicBoolean scheduled = new java.util.concurrent.atomic.AtomicBoolean();

    private Outbox(Context ctx) {
      this.ctx = ctx;
    }

    static Outbox of(Context ctx) {
      return BY_CONTEXT.computeIfAbsent(ctx, Outbox::new);
    }

    void post(Runnable r) {
      work.add(r);
      if (scheduled.compareAndSet(false, true)) {
        ctx.runOnContext(v -> drain());
      }
    }

    private void drain() {
      scheduled.set(false);
      for (Runnable r; (r = work.poll()) != null; ) {
        r.run();
      }
    }
  }


  private final boolean chat;
  private final long created;
  private final String modelJson;

  ResponseWriter(Rank rank, Rank.Prepared p, HttpServerResponse resp, Context ctx, boolean chat) {
    super(rank.newId(chat ? "chatcmpl-" : "cmpl-"), p, resp, ctx);
    this.chat = chat;
    this.created = rank.created();
    this.modelJson = Json.quote(p.model());
  }

  @Override
  String opening(int cachedTokens) {
    return "";
  }

  @Override
  String token(Sequence seq, int index) {
    boolean last = index == seq.outputLen() - 1;
    return chunk(seq.output.get(index), index == 0, last ? seq.finishReason : null);
  }

  @Override
  String closing(Sequence seq, Done done) {
    StringBuilder sb = new StringBuilder();
    if (p.request().includeUsage()) {
      sb.append("data: {\"id\":\"").append(id).append("\",\"object\":\"")
          .append(chat ? "chat.completion.chunk" : "text_completion").append("\",\"created\":").append(created)
          .append(",\"model\":").append(modelJson).append(",\"choices\":[],\"usage\":").append(usage(seq, done))
          .append("}\n\n");
    }
    return sb.append("data: [DONE]\n\n").toString();
  }

  @Override
  String body(Sequence seq, Done done) {
    return full(seq, done, usage(seq, done));
  }

  private static String usage(Sequence seq, Done done) {
    return "{\"prompt_tokens\":" + seq.promptLen + ",\"total_tokens\":" + (seq.promptLen + done.generated())
        + ",\"completion_tokens\":" + done.generated() + ",\"prompt_tokens_details\":{\"cached_tokens\":"
        + done.cachedTokens() + "}}";
  }

  private String chunk(String text, boolean first, String finish) {
    StringBuilder sb = new StringBuilder(256);
    sb.append("data: {\"id\":\"").append(id).append("\",\"object\":\"")
        .append(chat ? "chat.completion.chunk" : "text_completion").append("\",\"created\":").append(created)
        .append(",\"model\":").append(modelJson).append(",\"choices\":[{\"index\":0,");
    if (chat) {
      sb.append("\"delta\":{");
      if (first) {
        sb.append("\"role\":\"assistant\",");
      }
      sb.append("\"content\":");
      Json.appendQuoted(sb, text);
      sb.append("},\"logprobs\":null,\"finish_reason\":");
    } else {
      sb.append("\"text\":");
      Json.appendQuoted(sb, text);
      sb.append(",\"logprobs\":null,\"finish_reason\":");
    }
    sb.append(finish == null ? "null" : "\"" + finish + "\"");
    if (!chat) {
      sb.append(",\"stop_reason\":null");
    }
    sb.append("}]}\n\n");
    return sb.toString();
  }

  private String full(Sequence seq, Done done, String usage) {
    String text = generatedText(seq, done.generated());
    StringBuilder sb = new StringBuilder(text.length() + 512);
    sb.append("{\"id\":\"").append(id).append("\",\"object\":\"").append(chat ? "chat.completion" : "text_completion")
        .append("\",\"created\":").append(created).append(",\"model\":").append(modelJson)
        .append(",\"choices\":[{\"index\":0,");
    if (chat) {
      sb.append("\"message\":{\"role\":\"assistant\",\"content\":");
      Json.appendQuoted(sb, text);
      sb.append("},\"logprobs\":null,\"finish_reason\":\"").append(seq.finishReason).append("\"}]");
    } else {
      sb.append("\"text\":");
      Json.appendQuoted(sb, text);
      sb.append(",\"logprobs\":null,\"finish_reason\":\"").append(seq.finishReason).append("\",\"stop_reason\":null}]");
    }
    sb.append(",\"usage\":").append(usage).append('}');
    return sb.toString();
  }
}
