package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.AccelerationStatus;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads where llama.cpp put the model from the start of its log: the device it loaded on ({@code using device CUDA0
 * (NVIDIA L4)}) and how many layers it offloaded ({@code offloaded 33/33 layers to GPU}). A server that offloaded
 * nothing runs on the CPU, whatever was asked for — the silent fall-back {@code status.acceleration} exists to show.
 */
public final class AccelerationLog {
  private static final Pattern DEVICE = Pattern.compile("using device (\\S+) \\(([^)]*)\\)");
  private static final Pattern OFFLOADED = Pattern.compile("offloaded (\\d+)/(\\d+) layers to GPU");

  private AccelerationLog() {
  }

  /** The acceleration the log reports, or null when it says nothing about loading (yet). */
  public static AccelerationStatus parse(String log) {
    if (log == null) {
      return null;
    }
    Matcher off = OFFLOADED.matcher(log);
    Integer offloaded = null;
    Integer total = null;
    if (off.find()) {
      offloaded = Integer.valueOf(off.group(1));
      total = Integer.valueOf(off.group(2));
    }
    Matcher dev = DEVICE.matcher(log);
    String device = dev.find() ? dev.group(1) + " (" + dev.group(2) + ")" : null;
    if (offloaded == null) {
      return device == null ? null : new AccelerationStatus(device, null, null);
    }
    if (offloaded == 0 || device == null) {
      device = offloaded == 0 ? "CPU" : "GPU";
    }
    return new AccelerationStatus(device, offloaded, total);
  }
}
