package dev.modelplane.router.gateway;

import dev.modelplane.router.Log;
import java.io.PrintStream;
import java.time.Instant;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One key=value line per finished request, written by a background thread so the event loop never blocks on
 * output. When the queue is full, lines are dropped and counted rather than slowing requests down.
 */
public final class AccessLog implements AutoCloseable {
  /** A finished request. */
  public record Entry(Instant time, String method, String path, int status, long durationMicros, long ttfbMicros,
      long requestBytes, long responseBytes, String endpoint, String model, String targetModel, String requestId,
      int attempts, String pool, String error) {
  }

  private final BlockingQueue<Entry> queue = new ArrayBlockingQueue<>(65_536);
  private final PrintStream out;
  private final Thread writer;
  private final AtomicLong dropped = new AtomicLong();
  private volatile boolean closed;

  public AccessLog(PrintStream out) {
    this.out = out;
    this.writer = Thread.ofPlatform().daemon().name("access-log").start(this::run);
  }

  public void log(Entry e) {
    if (!queue.offer(e)) {
      dropped.incrementAndGet();
    }
  }

  public long dropped() {
    return dropped.get();
  }

  private void run() {
    StringBuilder sb = new StringBuilder(256);
    while (!closed || !queue.isEmpty()) {
      Entry e;
      try {
        e = queue.poll(200, TimeUnit.MILLISECONDS);
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        return;
      }
      if (e == null) {
        continue;
      }
      sb.setLength(0);
      sb.append("ts=").append(e.time()).append(" level=info msg=access method=").append(e.method()).append(" path=");
      Log.appendValue(sb, e.path());
      sb.append(" status=").append(e.status())
          .append(" duration_ms=").append(e.durationMicros() / 1000.0)
          .append(" ttfb_ms=").append(e.ttfbMicros() < 0 ? "-" : String.valueOf(e.ttfbMicros() / 1000.0))
          .append(" bytes_in=").append(e.requestBytes())
          .append(" bytes_out=").append(e.responseBytes())
          .append(" endpoint=").append(e.endpoint() == null ? "-" : e.endpoint())
          .append(" model=");
      Log.appendValue(sb, e.model() == null ? "-" : e.model());
      sb.append(" target_model=");
      Log.appendValue(sb, e.targetModel() == null ? "-" : e.targetModel());
      sb.append(" request_id=");
      Log.appendValue(sb, e.requestId() == null ? "-" : e.requestId());
      sb.append(" attempts=").append(e.attempts()).append(" pool=").append(e.pool() == null ? "-" : e.pool());
      if (e.error() != null) {
        sb.append(" error=");
        Log.appendValue(sb, e.error());
      }
      out.println(sb);
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      writer.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
