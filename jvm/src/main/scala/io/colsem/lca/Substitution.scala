package io.colsem.lca

import scala.annotation.tailrec

import org.apache.spark.sql.catalyst.analysis.Resolver
import org.apache.spark.sql.catalyst.expressions.{
  Alias, Attribute, Expression, ExtractValue, LateralColumnAliasReference, Literal, NamedExpression,
  SubqueryExpression
}

import org.apache.spark.sql.catalyst.trees.CurrentOrigin

import io.colsem.vocabulary.LateralAliasCandidate

/**
 * How the items of a SELECT list read the aliases computed below it (`computed`, by item) or
 * folded into them (`folded`), computed under `names`. `resolvedFolded`: folded aliases whose
 * value a level below has resolved ([[AliasMaterialization]] takes them from the resolved level
 * and passes them to [[afterLevel]]). `foldedValues`: the folded aliases' values built for the
 * readers [[readingFolded]] was given.
 * Values in, values out: no step sets a mark on an expression node (nodes the user's plan may
 * share), and nothing of the binding stays reachable from the analyzed plan.
 */
private[lca] final case class Substitution(
    binding: LateralAliasBinding,
    resolver: Resolver,
    computed: Map[Int, Attribute],
    folded: Set[Int],
    names: ComputedNames,
    resolvedFolded: Map[Int, Expression] = Map.empty,
    foldedValues: Map[Int, Expression] = Map.empty) {
  import AliasReading.{AsWritten, ByAttribute, ForNaming}

  /**
   * This substitution with the values built of the folded aliases that the items `readers` read
   * (each item with how it reads them), and of those these values read in turn. A folded alias is
   * read by all the items of its run: built once here and shared, it is neither copied nor
   * resolved again per item, which in a chain of N aliases folded in runs of F would be N * F
   * nodes. For the list on top, which Spark resolves.
   */
  def readingFolded(readers: Seq[(Int, AliasReading)]): Substitution =
    buildFolded(readers, (_, value) => value)

  /** [[readingFolded]] for a level that [[AliasMaterialization]] resolves: each value held in a
   *  [[FoldedValue]], so that the resolved level gives it back, shared with the level's items. */
  def readingFoldedInLevel(readers: Seq[(Int, AliasReading)]): Substitution =
    buildFolded(readers, FoldedValue.hold)

  private def buildFolded(
      readers: Seq[(Int, AliasReading)],
      hold: (Int, Expression) => Expression): Substitution = {
    def read(i: Int, reading: AliasReading): Set[Int] = binding.uses(i).filter(j =>
      folded.contains(j) && (reading != ByAttribute || !resolvedFolded.contains(j)))
    // The values read, and those their values read, in turn (the few of one run each level).
    @tailrec def withTheirReads(needed: Set[Int], added: Set[Int]): Set[Int] =
      if (added.isEmpty) needed
      else {
        val more = added.flatMap(read(_, ByAttribute)) -- needed
        withTheirReads(needed ++ more, more)
      }
    val direct = readers.flatMap { case (i, reading) => read(i, reading) }.toSet
    // A folded alias reads only earlier aliases: from the first up, each is built with the values
    // it reads already there.
    withTheirReads(direct, direct).toSeq.sorted.foldLeft(copy(foldedValues = Map.empty)) {
      (built, j) =>
        val value = built.substitute(j, binding.items(j).asInstanceOf[Alias].child)
        built.copy(foldedValues = built.foldedValues + (j -> hold(j, value)))
    }
  }

  /**
   * After a level computed the aliases `indices` as `attributes`, having read the folded aliases'
   * values `resolved` (as the resolved level holds them): reads the aliases there, and the folded
   * ones as those values, so no level above resolves them again.
   */
  def afterLevel(
      indices: Seq[Int],
      attributes: Seq[Attribute],
      resolved: Map[Int, Expression]): Substitution =
    copy(
      computed = computed ++ indices.zip(attributes),
      resolvedFolded = resolvedFolded ++ resolved,
      foldedValues = Map.empty)

  /** Alias i, computed below the list, as the list's item i: under a private name, as its own
   *  name and expression id again, so the list's output is what it would be without colsem. */
  def output(i: Int, computedAt: Attribute): NamedExpression = binding.items(i) match {
    case a: Alias if names == ComputedNames.Private =>
      CurrentOrigin.withOrigin(a.origin) { // errors point at the item
        Alias(computedAt, a.name)(
          a.exprId,
          a.qualifier,
          a.explicitMetadata,
          a.nonInheritableMetadataKeys)
      }
    case _ => computedAt
  }

  /** A lateral alias reference as Spark's native support would resolve it: the alias's
   *  attribute under the name as written, or the named struct field of it. */
  def reference(c: LateralAliasCandidate, j: Int): NamedExpression = {
    val base = computed(j).withName(c.nameParts.head)
    if (c.nameParts.size == 1) base
    else Alias(value(c, j, AsWritten), c.nameParts.last)()
  }

  /** The value a reference reads (no alias around a struct field), read as `reading` says: a
   *  column is read under its computed name by attribute, so that every reference to it is the
   *  same attribute (CollapseProject counts references by attribute, names included: split names
   *  would let it inline a doubling chain exponentially). A folded alias's value must have been
   *  built ([[readingFolded]]) unless read by attribute and resolved below. */
  def value(c: LateralAliasCandidate, j: Int, reading: AliasReading): Expression =
    if (folded.contains(j)) {
      val resolved = if (reading == ByAttribute) resolvedFolded.get(j) else None
      AliasNames.field(resolved.getOrElse(foldedValues(j)), c)
    } else {
      val column =
        if (reading != ByAttribute || names == ComputedNames.Own) {
          computed(j).withName(c.nameParts.head)
        } else {
          computed(j)
        }
      c.nameParts.tail.foldLeft(column: Expression)((b, f) => ExtractValue(b, Literal(f), resolver))
    }

  /** `e` (part of item i) with its candidates replaced, read as `reading` says. */
  def substitute(i: Int, e: Expression, reading: AliasReading = ByAttribute): Expression = {
    // Native support refuses references inside a window function (its rule raises
    // LATERAL_COLUMN_ALIAS_IN_WINDOW on any native reference in one): there the column is named as
    // written instead. Outside windows an unaliased item keeps native references, as native Spark
    // names `rank() OVER (...) + v`.
    def replace(node: Expression, inWindow: Boolean): Expression = node match {
      case s: SubqueryExpression if binding.inSubqueries.contains(i) =>
        SubqueryAliases.rewrite(s, binding.inSubqueries(i), computed)
      case c: LateralAliasCandidate => binding.meaning((i, c)) match {
          case Left(expr) => expr
          case Right(j) if reading == ForNaming && !inWindow && !folded.contains(j) =>
            val ref = LateralColumnAliasReference(reference(c, j), c.nameParts, computed(j))
            ref.setTagValue(ComputedAliases.NamingOnly, ())
            ref
          case Right(j) => value(c, j, reading)
        }
      case w if CallKinds.isWindow(w) => w.mapChildren(replace(_, inWindow = true))
      case other => other.mapChildren(replace(_, inWindow))
    }
    replace(e, inWindow = false)
  }
}
