package io.colsem.lca

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
 * folded into them (`folded`); `privateNames` when the computed ones are under private names.
 * `resolvedFolded`: folded aliases whose value a level has resolved, as found in that level.
 */
private[lca] final case class Substitution(
    binding: LateralAliasBinding,
    resolver: Resolver,
    computed: Map[Int, Attribute],
    folded: Set[Int],
    privateNames: Boolean,
    resolvedFolded: Map[Int, Expression] = Map.empty) {

  /** Folded aliases' expressions, each built once (a pure cache: the same value each time). */
  private val foldedValues = mutable.HashMap.empty[Int, Expression]

  /** Tells the folded values this substitution built from any other's (tags outlive a query). */
  private val token = new Object

  /**
   * After a level computed the aliases `indices` as `attributes`: reads them there, and reads each
   * folded alias whose value the level's `expressions` contain as that resolved value. A folded
   * alias is read by all the items of its run: resolved once and shared, it is neither copied nor
   * resolved again per item, which in a chain of N aliases folded in runs of F would be N * F
   * nodes.
   */
  def afterLevel(
      indices: Seq[Int],
      attributes: Seq[Attribute],
      expressions: Seq[Expression]): Substitution = {
    val found = mutable.LinkedHashMap.empty[Int, Expression]
    expressions.foreach(_.foreach(e =>
      e.getTagValue(Substitution.FoldedValue) match {
        case Some((t, j)) if t eq token => found.getOrElseUpdate(j, e)
        case _ =>
      }))
    copy(computed = computed ++ indices.zip(attributes), resolvedFolded = resolvedFolded ++ found)
  }

  /** Folded alias j's value, built from its expression and marked as j's for [[afterLevel]]. */
  private def foldedValue(j: Int): Expression = foldedValues.getOrElseUpdate(
    j, {
      val built = substitute(j, binding.items(j).asInstanceOf[Alias].child)
      // A value that is another alias's (`a AS x, x AS y`) keeps its first mark.
      if (!built.getTagValue(Substitution.FoldedValue).exists(_._1 eq token)) {
        built.setTagValue(Substitution.FoldedValue, (token, j))
      }
      built
    })

  /** Alias i, computed below the list, as the list's item i: under a private name, as its own
   *  name and expression id again, so the list's output is what it would be without colsem. */
  def output(i: Int, computedAt: Attribute): NamedExpression = binding.items(i) match {
    case a: Alias if privateNames =>
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
    else Alias(value(c, j, asWritten = true), c.nameParts.last)()
  }

  /** The value a reference reads (no alias around a struct field). asWritten: the column under
   *  the name as written, where it names an unaliased item; elsewhere under its private name,
   *  so that every reference to it is the same attribute (CollapseProject counts references by
   *  attribute, names included: split names would let it inline a doubling chain exponentially). */
  def value(c: LateralAliasCandidate, j: Int, asWritten: Boolean): Expression =
    if (folded.contains(j)) {
      val resolved = if (asWritten) None else resolvedFolded.get(j)
      AliasNames.field(resolved.getOrElse(foldedValue(j)), c)
    } else {
      val column =
        if (asWritten || !privateNames) computed(j).withName(c.nameParts.head) else computed(j)
      c.nameParts.tail.foldLeft(column: Expression)((b, f) => ExtractValue(b, Literal(f), resolver))
    }

  /** `e` (part of item i) with its candidates replaced. forNaming: the item has no alias, and
   *  Spark will name it from its text with native lateral alias references in it, so those are
   *  put there, and unwrapped once it has its name. asWritten: see [[value]]. */
  def substitute(
      i: Int,
      e: Expression,
      forNaming: Boolean = false,
      asWritten: Boolean = false): Expression = {
    // Native support refuses references inside a window function (its rule raises
    // LATERAL_COLUMN_ALIAS_IN_WINDOW on any native reference in one): there the column is named as
    // written instead. Outside windows an unaliased item keeps native references, as native Spark
    // names `rank() OVER (...) + v`.
    def replace(node: Expression, inWindow: Boolean): Expression = node match {
      case s: SubqueryExpression if binding.inSubqueries.contains(i) =>
        SubqueryAliases.rewrite(s, binding.inSubqueries(i), computed)
      case c: LateralAliasCandidate => binding.meaning((i, c)) match {
          case Left(expr) => expr
          case Right(j) if forNaming && !inWindow && !folded.contains(j) =>
            val ref = LateralColumnAliasReference(reference(c, j), c.nameParts, computed(j))
            ref.setTagValue(ComputedAliases.NamingOnly, ())
            ref
          case Right(j) => value(c, j, asWritten || forNaming)
        }
      case w if CallKinds.isWindow(w) => w.mapChildren(replace(_, inWindow = true))
      case other => other.mapChildren(replace(_, inWindow))
    }
    replace(e, inWindow = false)
  }
}

private[lca] object Substitution {

  /** On a folded alias's value: the [[Substitution]] that built it (its token) and the alias. */
  val FoldedValue: TreeNodeTag[(AnyRef, Int)] =
    TreeNodeTag[(AnyRef, Int)]("colsem.lateralAlias.foldedValue")
}
