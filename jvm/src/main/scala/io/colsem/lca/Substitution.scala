package io.colsem.lca

import scala.annotation.tailrec
import scala.collection.mutable

import org.apache.spark.sql.catalyst.analysis.Resolver
import org.apache.spark.sql.catalyst.expressions.{
  Alias, Attribute, Expression, ExtractValue, LateralColumnAliasReference, Literal, NamedExpression,
  SubqueryExpression
}

import org.apache.spark.sql.catalyst.trees.{CurrentOrigin, TreeNodeTag}

import io.colsem.LateralAliasCandidate

/**
 * How the items of a SELECT list read the aliases computed below it (`computed`, by item) or
 * folded into them (`folded`), computed under `names`. `resolvedFolded`: folded aliases whose value
 * a level has resolved, as found in that level. `level`: how many levels are computed below, which
 * tells the folded values built for the next one from those of the levels below.
 * `foldedValues`: the folded aliases' values built for the readers [[readingFolded]] was given.
 */
private[lca] final case class Substitution(
    binding: LateralAliasBinding,
    resolver: Resolver,
    computed: Map[Int, Attribute],
    folded: Set[Int],
    names: ComputedNames,
    resolvedFolded: Map[Int, Expression] = Map.empty,
    level: Int = 0,
    foldedValues: Map[Int, Expression] = Map.empty) {
  import AliasReading.{AsWritten, ByAttribute, ForNaming}

  /**
   * This substitution with the values built of the folded aliases that the items `readers` read
   * (each item with how it reads them), and of those these values read in turn: each marked as
   * that alias's for [[afterLevel]]. A folded alias is read by all the items of its run: built
   * once here and shared, it is neither copied nor resolved again per item, which in a chain of N
   * aliases folded in runs of F would be N * F nodes.
   */
  def readingFolded(readers: Seq[(Int, AliasReading)]): Substitution = {
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
        val mark = Substitution.FoldedMark(binding, level, j)
        // A value that is another alias's (`a AS x, x AS y`) keeps its first mark.
        if (!value.getTagValue(Substitution.FoldedValue).exists(_.isOfLevel(binding, level))) {
          value.setTagValue(Substitution.FoldedValue, mark)
        }
        built.copy(foldedValues = built.foldedValues + (j -> value))
    }
  }

  /**
   * After a level computed the aliases `indices` as `attributes`: reads them there, and reads each
   * folded alias whose value the level's `expressions` contain as that resolved value.
   */
  def afterLevel(
      indices: Seq[Int],
      attributes: Seq[Attribute],
      expressions: Seq[Expression]): Substitution = {
    val found = mutable.LinkedHashMap.empty[Int, Expression]
    expressions.foreach(_.foreach(e =>
      e.getTagValue(Substitution.FoldedValue) match {
        case Some(mark) if mark.isOfLevel(binding, level) => found.getOrElseUpdate(mark.alias, e)
        case _ =>
      }))
    copy(
      computed = computed ++ indices.zip(attributes),
      resolvedFolded = resolvedFolded ++ found,
      level = level + 1,
      foldedValues = Map.empty)
  }

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

private[lca] object Substitution {

  /** On a folded alias's value: the alias, and the list and level it was built for (a node can
   *  carry a mark from another query, or from a level below whose value it is). */
  final case class FoldedMark(binding: LateralAliasBinding, level: Int, alias: Int) {
    def isOfLevel(b: LateralAliasBinding, l: Int): Boolean = (binding eq b) && level == l
  }

  val FoldedValue: TreeNodeTag[FoldedMark] =
    TreeNodeTag[FoldedMark]("colsem.lateralAlias.foldedValue")
}
