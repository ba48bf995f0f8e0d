package dev.modelplane.common.request;

import java.util.HexFormat;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * Request ids, made in one place. A request that arrives with an {@value #HEADER} keeps it; otherwise the gateway
 * and the endpoint picker give it a random version-4 UUID, the form Envoy generates. The simulator's response ids
 * follow OpenAI's: a prefix naming the object ({@code chatcmpl-}, {@code cmpl-}) and 16 hex digits, drawn from the
 * simulator's seeded generator so a run with {@code --seed} repeats them.
 */
public final class RequestIds {
  /** The header that carries a request's id between proxies and model servers. */
  public static final String HEADER = "x-request-id";
  /** The MDC key, and so the log field, under which a request's log lines carry its id. */
  public static final String MDC_KEY = "request_id";

  private RequestIds() {
  }

  /** A new random id in UUID form. Not a secret: fast randomness is enough. */
  public static String newId() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long high = random.nextLong() & ~0xF000L | 0x4000L; // version 4
    long low = random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L; // IETF variant
    return new UUID(high, low).toString();
  }

  /** {@code given} when the client sent one (non-empty), else a {@linkplain #newId() new id}. */
  public static String orNew(String given) {
    return given == null || given.isEmpty() ? newId() : given;
  }

  /** {@code prefix} and 16 hex digits from {@code random}; the caller guards a generator shared between threads. */
  public static String prefixed(String prefix, RandomGenerator random) {
    return prefix + HexFormat.of().toHexDigits(random.nextLong());
  }
}
