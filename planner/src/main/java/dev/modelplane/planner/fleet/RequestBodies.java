package dev.modelplane.planner.fleet;

import dev.modelplane.planner.workload.PlannedRequest;
import java.nio.charset.StandardCharsets;

/**
 * The HTTP request a client sends for each {@link PlannedRequest}: a streamed completion whose prompt is exactly
 * {@code promptTokens} words for the simulator's word tokenizer (three letters and a space: four bytes, about what a
 * real tokenizer averages per token, so the router's byte-based prefix estimate sees the same lengths), the first
 * {@code prefixTokens} of them the same for every request of its prefix group, and {@code max_tokens} with
 * {@code ignore_eos}, so the server generates exactly {@code outputTokens}. The same seed gives the same bytes, which
 * is how a live run and a simulated one send the same workload.
 */
public final class RequestBodies {
  /** The API the bodies are for. */
  public static final String PATH = "/v1/completions";
  private static final long GROUP_DOMAIN = 0x5bd1e9955bd1e995L;
  private static final long REQUEST_DOMAIN = 0x27d4eb2f165667c5L;

  private final long seed;
  private final String baseModel;

  /** Bodies for {@code baseModel} (requests naming an adapter ask for the adapter instead). */
  public RequestBodies(long seed, String baseModel) {
    this.seed = seed;
    this.baseModel = baseModel;
  }

  /** The request's prompt text. */
  public String prompt(PlannedRequest r) {
    StringBuilder sb = new StringBuilder(r.promptTokens() * 4);
    appendPrompt(sb, r);
    return sb.toString();
  }

  /** The request's JSON body. */
  public byte[] body(PlannedRequest r) {
    String model = r.adapter() != null ? r.adapter() : baseModel;
    StringBuilder sb = new StringBuilder(r.promptTokens() * 4 + 128);
    sb.append("{\"model\":\"").append(jsonText(model)).append("\",\"prompt\":\"");
    appendPrompt(sb, r);
    sb.append("\",\"max_tokens\":").append(r.outputTokens()).append(",\"ignore_eos\":true,\"stream\":true}");
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  private void appendPrompt(StringBuilder sb, PlannedRequest r) {
    for (int k = 0; k < r.prefixTokens(); k++) {
      word(sb, mix(seed ^ GROUP_DOMAIN, r.prefixGroup(), k));
    }
    for (int k = r.prefixTokens(); k < r.promptTokens(); k++) {
      word(sb, mix(seed ^ REQUEST_DOMAIN, r.id(), k));
    }
  }

  private static void word(StringBuilder sb, long h) {
    long v = h >>> 1;
    sb.append((char) ('a' + v % 26)).append((char) ('a' + (v / 26) % 26)).append((char) ('a' + (v / 676) % 26))
        .append(' ');
  }

  /** SplitMix64 over three inputs. */
  private static long mix(long a, long b, long c) {
    long z = a + 0x9e3779b97f4a7c15L * (b + 1) + 0xbf58476d1ce4e5b9L * (c + 1);
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  private static String jsonText(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
