package dev.modelplane.planner.workload;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Recorded traffic replayed. With recorded arrival times, the replay keeps their pattern, scaled to {@link #rate()}:
 * one pass of the recording, or with a duration, cut there or repeated (each repetition one recording period later).
 * Without arrival times (a genai-bench result keeps only lengths) requests arrive as a Poisson process at the rate,
 * their lengths taken in recorded order, repeated when a duration asks for more.
 *
 * @param source what was read, for {@link #describe()}
 * @param recorded the recorded requests
 * @param recordedRate the mean rate of the recording in requests/s (measured, for lengths-only recordings)
 * @param rate the mean rate of the replay
 * @param durationSeconds the replay's length, or null for one pass of the recording
 * @param seed the seed of the Poisson arrivals of a lengths-only recording
 */
record ReplayWorkload(String source, RecordedRequests recorded, double recordedRate, double rate,
    Double durationSeconds, long seed) implements Workload {

  ReplayWorkload {
    if (!(rate > 0) || Double.isInfinite(rate)) {
      throw new IllegalArgumentException(source + ": the rate must be > 0 requests/s, got " + rate);
    }
    if (durationSeconds != null && !(durationSeconds > 0)) {
      throw new IllegalArgumentException(source + ": the duration must be > 0 seconds, got " + durationSeconds);
    }
  }

  @Override
  public Iterator<PlannedRequest> requests() {
    return new Replay();
  }

  @Override
  public String describe() {
    int n = recorded.size();
    List<String> parts = new ArrayList<>();
    String limit = durationSeconds == null ? "" : " for " + LengthDistribution.number(durationSeconds) + " s";
    if (recorded.arrivalNanos() == null) {
      parts.add("replay of " + source + ": " + n + " recorded request lengths (arrival times were not recorded), "
          + "Poisson " + LengthDistribution.number(rate) + " req/s" + limit);
    } else {
      parts.add("replay of " + source + ": " + n + " requests at " + LengthDistribution.number(rate) + " req/s"
          + (Math.abs(rate - recordedRate) > 1e-9 * recordedRate ? " (recorded " + LengthDistribution.number(
              recordedRate) + " req/s)" : "") + limit);
    }
    parts.add("prompt mean " + LengthDistribution.number(recorded.meanPrompt()));
    parts.add("output mean " + LengthDistribution.number(recorded.meanOutput()));
    long groups = recorded.prefixGroupCount();
    if (groups > 0) {
      parts.add(groups + " prefix group" + (groups == 1 ? "" : "s"));
    }
    if (recorded.loraShare() > 0) {
      parts.add(LengthDistribution.number(recorded.loraShare() * 100) + "% LoRA");
    }
    return String.join(", ", parts);
  }

  @Override
  public Workload atRate(double requestsPerSecond) {
    return new ReplayWorkload(source, recorded, recordedRate, requestsPerSecond, durationSeconds, seed);
  }

  @Override
  public Set<String> adapters() {
    return Set.copyOf(recorded.adapterNames());
  }

  /** The recording's period: its span plus one mean gap, so that a repetition continues at the same rate. */
  static double periodSeconds(long[] arrivalNanos) {
    int n = arrivalNanos.length;
    double span = (arrivalNanos[n - 1] - arrivalNanos[0]) / 1e9;
    return span * n / (n - 1);
  }

  private final class Replay implements Iterator<PlannedRequest> {
    private final SplittableRandom arrivals = new SplittableRandom(seed);
    /** Seconds of the replay per recorded second. */
    private final double scale = recordedRate / rate;
    private final double period = recorded.arrivalNanos() == null ? 0 : periodSeconds(recorded.arrivalNanos());
    private long id;
    private double poissonSeconds;
    private PlannedRequest next = draw();

    @Override
    public boolean hasNext() {
      return next != null;
    }

    @Override
    public PlannedRequest next() {
      if (next == null) {
        throw new NoSuchElementException();
      }
      PlannedRequest current = next;
      next = draw();
      return current;
    }

    private PlannedRequest draw() {
      int n = recorded.size();
      if (durationSeconds == null && id >= n) {
        return null;
      }
      int i = (int) (id % n);
      double seconds;
      if (recorded.arrivalNanos() == null) {
        poissonSeconds += arrivals.nextExponential() / rate;
        seconds = poissonSeconds;
      } else {
        long round = id / n;
        seconds = ((recorded.arrivalNanos()[i] - recorded.arrivalNanos()[0]) / 1e9 + round * period) * scale;
      }
      if (durationSeconds != null && seconds >= durationSeconds) {
        return null;
      }
      return recorded.request(i, id++, Math.round(seconds * 1e9));
    }
  }
}
