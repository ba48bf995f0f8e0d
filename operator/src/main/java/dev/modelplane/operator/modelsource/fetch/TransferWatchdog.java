package dev.modelplane.operator.modelsource.fetch;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Watches the transfer in progress from a timer thread and closes its stream when the caller cancels or when no byte
 * has arrived for the stall timeout. Closing the stream is what unblocks a reader stuck in {@code read()} on a silent
 * connection, so cancellation takes effect within a tick even then.
 */
final class TransferWatchdog implements AutoCloseable {
  /** Why the watchdog closed the stream. */
  enum Reason { NONE, CANCELLED, STALLED }

  private static final long TICK_MILLIS = 100;

  private final BooleanSupplier cancelled;
  private final long stallNanos;
  private final ScheduledExecutorService timer;
  private Closeable current;
  private long lastProgress;
  private Reason reason = Reason.NONE;

  TransferWatchdog(BooleanSupplier cancelled, Duration stallTimeout) {
    this.cancelled = cancelled;
    this.stallNanos = stallTimeout.toNanos();
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "model-download-watchdog");
      t.setDaemon(true);
      return t;
    });
    timer.scheduleAtFixedRate(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** Starts watching {@code stream}; {@link #release()} when the transfer ends. */
  synchronized void watch(Closeable stream) {
    current = stream;
    lastProgress = System.nanoTime();
    reason = Reason.NONE;
  }

  /** Some bytes arrived. */
  synchronized void progressed() {
    lastProgress = System.nanoTime();
  }

  /** The transfer ended; returns why the watchdog stopped it, if it did. */
  synchronized Reason release() {
    current = null;
    Reason r = reason;
    reason = Reason.NONE;
    return r;
  }

  /** Whether the caller asked to stop (or interrupted the downloading thread). */
  boolean cancelRequested() {
    return cancelled.getAsBoolean();
  }

  private synchronized void tick() {
    if (current == null) {
      return;
    }
    if (cancelled.getAsBoolean()) {
      stop(Reason.CANCELLED);
    } else if (System.nanoTime() - lastProgress > stallNanos) {
      stop(Reason.STALLED);
    }
  }

  private void stop(Reason why) {
    reason = why;
    try {
      current.close();
    } catch (IOException | RuntimeException ignored) {
      // the reader sees the closed stream either way
    }
    current = null;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
