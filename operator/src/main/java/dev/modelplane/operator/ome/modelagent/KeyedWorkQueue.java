package dev.modelplane.operator.ome.modelagent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bounded work queue of keys with a fixed number of workers, like a controller's rate-limited queue: a key waits
 * at most once; a key is never handled by two workers at once; a key added while it is being handled is handled
 * again afterwards. Keys beyond the capacity are dropped with a warning (a resync adds them again).
 */
final class KeyedWorkQueue<K> implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KeyedWorkQueue.class);

  private final Object lock = new Object();
  private final LinkedHashSet<K> queued = new LinkedHashSet<>();
  private final Set<K> running = new HashSet<>();
  private final Set<K> dirty = new HashSet<>();
  private final int capacity;
  private final Consumer<K> handler;
  private final List<Thread> workers = new ArrayList<>();
  private final ScheduledExecutorService delays;
  private boolean closed;

  KeyedWorkQueue(String name, int workerCount, int capacity, Consumer<K> handler) {
    this.capacity = capacity;
    this.handler = handler;
    this.delays = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, name + "-delays");
      t.setDaemon(true);
      return t;
    });
    for (int i = 0; i < workerCount; i++) {
      Thread t = new Thread(this::work, name + "-worker-" + i);
      t.setDaemon(true);
      workers.add(t);
    }
  }

  void start() {
    workers.forEach(Thread::start);
  }

  /** Queues {@code key} unless it already waits; false when the queue is closed or full. */
  boolean add(K key) {
    synchronized (lock) {
      if (closed) {
        return false;
      }
      if (running.contains(key)) {
        dirty.add(key);
        return true;
      }
      if (queued.contains(key)) {
        return true;
      }
      if (queued.size() >= capacity) {
        LOG.warn("agent.queue-full capacity={} dropped={}", capacity, key);
        return false;
      }
      queued.add(key);
      lock.notifyAll();
      return true;
    }
  }

  /** Queues {@code key} after {@code delay}. */
  void addAfter(K key, Duration delay) {
    synchronized (lock) {
      if (closed) {
        return;
      }
    }
    delays.schedule(() -> add(key), delay.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Keys waiting or being handled. */
  int size() {
    synchronized (lock) {
      return queued.size() + running.size();
    }
  }

  private void work() {
    while (true) {
      K key;
      synchronized (lock) {
        while (queued.isEmpty() && !closed) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (closed) {
          return;
        }
        Iterator<K> it = queued.iterator();
        key = it.next();
        it.remove();
        running.add(key);
      }
      try {
        handler.accept(key);
      } catch (RuntimeException e) {
        LOG.error("agent.handler-failed key={} error=\"{}\"", key, e.toString(), e);
      } finally {
        synchronized (lock) {
          running.remove(key);
          if (dirty.remove(key) && !closed) {
            queued.add(key);
            lock.notifyAll();
          }
        }
      }
    }
  }

  /** Stops taking work, interrupts the workers and waits up to {@code timeout} for them. */
  void close(Duration timeout) {
    synchronized (lock) {
      closed = true;
      queued.clear();
      lock.notifyAll();
    }
    delays.shutdownNow();
    workers.forEach(Thread::interrupt);
    long deadline = System.nanoTime() + timeout.toNanos();
    for (Thread t : workers) {
      try {
        t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(10));
  }
}
