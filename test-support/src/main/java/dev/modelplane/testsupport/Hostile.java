package dev.modelplane.testsupport;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * Runs a parser on one hostile input: it must answer within a generous bound, either with a value or with one of the
 * exception types it documents, carrying a message. Anything else (a NullPointerException, an index out of bounds,
 * a StackOverflowError, an OutOfMemoryError, an unwrapped NumberFormatException, a hang) fails the property.
 */
public final class Hostile {
  /** Far above the milliseconds any input here takes, so only a hang or a runaway loop reaches it. */
  public static final Duration BOUND = Duration.ofSeconds(10);

  private Hostile() {
  }

  /**
   * Runs a parser on an input it must accept: the value, or a failure naming what was thrown. A parser that refuses
   * everything fails here, which the hostile-input properties alone would not notice.
   */
  public static <T> T valid(Callable<T> parse) {
    return assertTimeoutPreemptively(BOUND, () -> {
      try {
        return parse.call();
      } catch (Exception e) {
        throw new AssertionError("a valid input was refused: " + e, e);
      }
    });
  }

  /** {@code "ok"} or the simple name of the documented exception thrown, for jqwik's statistics. */
  @SafeVarargs
  public static String outcome(Callable<?> parse, Class<? extends Exception>... documented) {
    return assertTimeoutPreemptively(BOUND, () -> {
      try {
        parse.call();
        return "ok";
      } catch (Exception e) {
        boolean numberFormatLeak = e instanceof NumberFormatException
            && Arrays.stream(documented).noneMatch(NumberFormatException.class::equals);
        if (numberFormatLeak || Arrays.stream(documented).noneMatch(t -> t.isInstance(e))) {
          throw new AssertionError("undocumented " + e, e);
        }
        if (e.getMessage() == null || e.getMessage().isBlank()) {
          throw new AssertionError("no message in " + e, e);
        }
        return e.getClass().getSimpleName();
      }
    });
  }
}
