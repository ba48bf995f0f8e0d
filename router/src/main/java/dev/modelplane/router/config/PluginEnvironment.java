package dev.modelplane.router.config;

import dev.modelplane.router.prefix.ApproxPrefixCacheProducer;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Services plugins may use: a monotonic clock, randomness, an executor for work kept off the request path, and
 * observers feeding metrics.
 *
 * @param nanoClock {@link System#nanoTime()} in production, a fake in tests
 * @param random randomness for pickers
 * @param background executor for asynchronous learning (prefix index)
 * @param prefixObserver receives prefix hit sizes
 * @param disaggDecisions receives (target model, decision) from the P/D handler
 */
public record PluginEnvironment(LongSupplier nanoClock, Supplier<RandomGenerator> random, Executor background,
    ApproxPrefixCacheProducer.MatchObserver prefixObserver, BiConsumer<String, String> disaggDecisions) {

  /** Real clock, thread-local randomness, learning on the calling thread. For tests and tools. */
  public static PluginEnvironment direct() {
    return new PluginEnvironment(System::nanoTime, ThreadLocalRandom::current, Runnable::run,
        ApproxPrefixCacheProducer.MatchObserver.NONE, (m, d) -> { });
  }
}
