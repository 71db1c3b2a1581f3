package io.colsem.lca

import org.apache.spark.sql.catalyst.analysis.{Resolver, UnresolvedExtractValue}
import org.apache.spark.sql.catalyst.expressions.{Alias, Expression, Literal}

import io.colsem.vocabulary.{LateralAliasCandidate, PlanTags}

/**
 * A SELECT list's explicit aliases (not the names Spark or a dialect gives an unaliased item) by
 * name: the one way every part of the feature finds the items a name may mean. Indexed once per
 * list, so a name's aliases are found without scanning the list (a chain of N aliases would cost
 * N * N).
 */
private[lca] final class AliasNames private (
    items: IndexedSeq[Expression],
    byBucket: Map[String, IndexedSeq[Int]]) {

  /** The items in `range` the user gave the alias `name`, in list order. */
  def named(resolver: Resolver, name: String, range: Range): IndexedSeq[Int] =
    byBucket.getOrElse(AliasNames.bucket(name), IndexedSeq.empty).filter { j =>
      range.contains(j) && resolver(items(j).asInstanceOf[Alias].name, name)
    }

  /** The items before item `i` the user gave the alias `name`. */
  def before(resolver: Resolver, name: String, i: Int): IndexedSeq[Int] =
    named(resolver, name, 0 until i)
}

private[lca] object AliasNames {

  def apply(items: IndexedSeq[Expression]): AliasNames =
    new AliasNames(
      items,
      items.indices.collect {
        case j if isExplicitAlias(items(j)) => j
      }.groupBy(j => bucket(items(j).asInstanceOf[Alias].name)))

  private def isExplicitAlias(e: Expression): Boolean = e match {
    case a: Alias => !PlanTags.isImplicitName(a)
    case _ => false
  }

  /** A key equal for any two names either resolver takes as equal (String.equalsIgnoreCase
   *  compares characters as upper case, then as lower case); the resolver decides within it. */
  private def bucket(name: String): String =
    name.map(ch => Character.toLowerCase(Character.toUpperCase(ch)))

  /** `base`'s struct field the candidate names after the alias (`st.a`), or `base` itself. */
  def field(base: Expression, c: LateralAliasCandidate): Expression =
    c.nameParts.tail.foldLeft(base)((b, f) => UnresolvedExtractValue(b, Literal(f)))
}
