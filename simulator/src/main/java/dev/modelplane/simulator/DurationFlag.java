package dev.modelplane.simulator;

import dev.modelplane.common.text.GoDuration;
import java.time.Duration;
import picocli.CommandLine;

/**
 * picocli converter of the simulator's duration flags: a Go duration ({@code 100ms}, {@code 1.5s}, {@code 250us}),
 * or a bare integer of milliseconds, the deprecated form llm-d-inference-sim still reads, so one command line works
 * for both. No simulator duration may be negative.
 */
public final class DurationFlag implements CommandLine.ITypeConverter<Duration> {
  @Override
  public Duration convert(String value) {
    String text = value == null ? "" : value.strip();
    if (!text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      try {
        return Duration.ofMillis(Long.parseLong(text));
      } catch (NumberFormatException e) {
        throw new CommandLine.TypeConversionException("duration \"" + value + "\" is out of range");
      }
    }
    return new GoDuration.NonNegativeConverter().convert(value);
  }
}
