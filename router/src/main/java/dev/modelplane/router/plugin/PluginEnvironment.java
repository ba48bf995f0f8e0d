package dev.modelplane.router.plugin;

import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Services plugins may use: a monotonic clock, randomness, an executor for work kept off the request path, and where
 * to report what they decide.
 *
 * @param nanoClock {@link System#nanoTime()} in production, a fake in tests
 * @param random randomness for pickers
 * @param background executor for asynchronous learning (prefix index)
 * @param observer receives prefix matches and P/D decisions (the router's metrics)
 * @param tokenizer the model servers' tokenizers, for plugins that need a prompt's exact token ids
 */
public record PluginEnvironment(LongSupplier nanoClock, Supplier<RandomGenerator> random, Executor background,
    PluginObserver observer, PromptTokenizer tokenizer) {

  public PluginEnvironment {
    tokenizer = tokenizer == null ? PromptTokenizer.NONE : tokenizer;
  }

  /** An environment without tokenizers. */
  public PluginEnvironment(LongSupplier nanoClock, Supplier<RandomGenerator> random, Executor background,
      PluginObserver observer) {
    this(nanoClock, random, background, observer, PromptTokenizer.NONE);
  }

  /** Real clock, thread-local randomness, learning on the calling thread, nothing observed. For tests and tools. */
  public static PluginEnvironment direct() {
    return new PluginEnvironment(System::nanoTime, ThreadLocalRandom::current, Runnable::run, PluginObserver.NONE);
  }
}
