/**
 * The session layer (seed 003, tier 2): typed slots (error, decision, todo, dependency) that keep their newest items,
 * and a pool that decays unless later messages mention its items, rendered as {@code <session>}. Entry points:
 * {@link dev.workingmemory.slots.SessionSlotsConfig} and
 * {@link dev.workingmemory.slots.SessionSlots#factory(SessionSlotsConfig)}; extraction is pluggable through
 * {@link dev.workingmemory.slots.SessionExtractor}, by default {@link dev.workingmemory.slots.HeuristicSessionExtractor}.
 */
package dev.workingmemory.slots;
