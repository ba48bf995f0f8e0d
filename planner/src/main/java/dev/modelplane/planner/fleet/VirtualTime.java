package dev.modelplane.planner.fleet;

import java.util.PriorityQueue;

/**
 * The simulation's clock and its agenda: tasks run in time order, and at equal times by rank (arrivals before the
 * router's own work before the servers' steps before scrapes), then in the order they were scheduled. Time only moves
 * when the next task runs.
 */
final class VirtualTime {
  /** Ranks of tasks that fall due at the same instant. */
  static final int ARRIVAL = 0;
  static final int ROUTER = 1;
  static final int SERVER = 2;
  static final int SCRAPE = 3;

  private record Entry(long time, int rank, long order, Runnable task) implements Comparable<Entry> {
    @Override
    public int compareTo(Entry o) {
      int c = Long.compare(time, o.time);
      if (c != 0) {
        return c;
      }
      c = Integer.compare(rank, o.rank);
      return c != 0 ? c : Long.compare(order, o.order);
    }
  }

  private final PriorityQueue<Entry> agenda = new PriorityQueue<>();
  private long now;
  private long scheduled;
  private long ran;

  long now() {
    return now;
  }

  /** Runs {@code task} at {@code time} (never before now). */
  void at(long time, int rank, Runnable task) {
    agenda.add(new Entry(Math.max(time, now), rank, scheduled++, task));
  }

  /** Runs the next task; false when the agenda is empty. */
  boolean runNext() {
    Entry e = agenda.poll();
    if (e == null) {
      return false;
    }
    now = e.time;
    ran++;
    e.task.run();
    return true;
  }

  /** Tasks run so far. */
  long tasksRun() {
    return ran;
  }
}
