package dev.modelplane.planner.fleet;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The router's flow-control executor in virtual time: {@code execute} runs a task at the current instant (after
 * what is already due then), {@code scheduleAtFixedRate} on the virtual clock until cancelled. What flow control does
 * not use is refused.
 */
final class VirtualExecutor extends AbstractExecutorService implements ScheduledExecutorService {
  private final VirtualTime time;

  VirtualExecutor(VirtualTime time) {
    this.time = time;
  }

  @Override
  public void execute(Runnable command) {
    time.at(time.now(), VirtualTime.ROUTER, command);
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
    Periodic p = new Periodic(command, unit.toNanos(period));
    p.next = time.now() + unit.toNanos(initialDelay);
    time.at(p.next, VirtualTime.ROUTER, p);
    return p;
  }

  /** A task repeated every {@code period} until cancelled. */
  private final class Periodic implements Runnable, ScheduledFuture<Object> {
    private final Runnable command;
    private final long period;
    long next;
    private boolean cancelled;

    Periodic(Runnable command, long period) {
      this.command = command;
      this.period = Math.max(1, period);
    }

    @Override
    public void run() {
      if (cancelled) {
        return;
      }
      command.run();
      if (!cancelled) {
        next += period;
        time.at(next, VirtualTime.ROUTER, this);
      }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean was = !cancelled;
      cancelled = true;
      return was;
    }

    @Override
    public boolean isCancelled() {
      return cancelled;
    }

    @Override
    public boolean isDone() {
      return cancelled;
    }

    @Override
    public Object get() {
      throw new UnsupportedOperationException("a periodic task has no result");
    }

    @Override
    public Object get(long timeout, TimeUnit unit) {
      throw new UnsupportedOperationException("a periodic task has no result");
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(next - time.now(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed o) {
      return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
    }
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    throw new UnsupportedOperationException("not used by flow control");
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    throw new UnsupportedOperationException("not used by flow control");
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
    throw new UnsupportedOperationException("not used by flow control");
  }

  @Override
  public void shutdown() {
  }

  @Override
  public List<Runnable> shutdownNow() {
    return List.of();
  }

  @Override
  public boolean isShutdown() {
    return false;
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return true;
  }
}
