package dev.modelplane.router.scheduling;

/** A candidate with its weighted total score. */
public record ScoredCandidate(Candidate candidate, double score) {
}
