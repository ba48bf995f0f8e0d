package dev.modelplane.router.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Keeps client-chosen values out of label sets: request {@code model} names and fairness ids are client input, and
 * each distinct label value is a new series held for the life of the process.
 *
 * <p>A model name is its own label when the pools serve it (an InferenceObjective's name, a LoRA adapter an endpoint
 * reports), when a model server answered a request for it with a 2xx ({@link #served}, at most
 * {@link #MAX_SERVED} names), or while fewer than {@link #MAX_UNCONFIRMED} other names have been admitted (so the
 * first requests of a new model are labelled before its first answer); any other name, and any name longer than
 * {@link #MAX_NAME_LENGTH}, is {@value #OTHER}.
 * A fairness id becomes one of {@link #FAIRNESS_BUCKETS} hash buckets (the default flow keeps its name).
 */
public final class MetricLabels {
  /** The label of every model name not admitted. */
  public static final String OTHER = "other";
  /** Model names learnt from successful responses. */
  public static final int MAX_SERVED = 1024;
  /** Model names admitted before anything confirmed them. */
  public static final int MAX_UNCONFIRMED = 32;
  /** Longest model name that may be a label value (the request parser refuses longer ones anyway). */
  public static final int MAX_NAME_LENGTH = 1024;
  /** Buckets fairness ids are hashed into. */
  public static final int FAIRNESS_BUCKETS = 64;
  /** The fairness id of requests that name none (kept as is). */
  static final String DEFAULT_FAIRNESS_ID = "default-flow";

  private final Map<String, Boolean> admitted = new ConcurrentHashMap<>();
  private final AtomicInteger served = new AtomicInteger();
  private final AtomicInteger unconfirmed = new AtomicInteger();
  private volatile Predicate<String> known = name -> false;

  /** Where names the pools serve are looked up (objective names, LoRA adapters). */
  public void knownModels(Predicate<String> known) {
    this.known = known;
  }

  /** The label for a model name: itself when admitted, else {@value #OTHER}. "" stays "" (no model). */
  public String model(String name) {
    if (name == null || name.isEmpty()) {
      return "";
    }
    if (name.length() > MAX_NAME_LENGTH) {
      return OTHER;
    }
    if (admitted.containsKey(name)) {
      return name;
    }
    if (known.test(name)) {
      return name; // not stored: the pools' own list bounds it
    }
    if (unconfirmed.get() < MAX_UNCONFIRMED && unconfirmed.incrementAndGet() <= MAX_UNCONFIRMED) {
      admitted.putIfAbsent(name, Boolean.FALSE);
      return name;
    }
    return OTHER;
  }

  /** A model server answered a request for {@code name} with a 2xx: the name is real. */
  public void served(String name) {
    if (name == null || name.isEmpty() || name.length() > MAX_NAME_LENGTH
        || Boolean.TRUE.equals(admitted.get(name))) {
      return;
    }
    if (served.get() < MAX_SERVED && served.incrementAndGet() <= MAX_SERVED) {
      admitted.put(name, Boolean.TRUE);
    }
  }

  /** The label for a fairness id: the default flow's name, else {@code bucket-N} with N below 64. */
  public static String fairness(String fairnessId) {
    if (fairnessId == null || fairnessId.isEmpty() || fairnessId.equals(DEFAULT_FAIRNESS_ID)) {
      return DEFAULT_FAIRNESS_ID;
    }
    int h = fairnessId.hashCode() * 0x9E3779B9; // String.hashCode is specified, so buckets are stable across runs
    return "bucket-" + Math.floorMod(h ^ (h >>> 16), FAIRNESS_BUCKETS);
  }
}
