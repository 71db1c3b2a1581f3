package io.colsem.lca

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{Resolver, UnresolvedAttribute}
import org.apache.spark.sql.catalyst.expressions.{
  Alias, Attribute, Expression, NamedExpression, SubqueryExpression, UnresolvedNamedLambdaVariable
}
import org.apache.spark.sql.catalyst.plans.logical.{LocalRelation, LogicalPlan, Project, Window}

import io.colsem.errors.ColsemErrors
import io.colsem.vocabulary.LateralAliasCandidate

/**
 * The aliases a SELECT list's items use, computed once each below the list: one Project per
 * dependency level ([[LateralAliasBinding.levels]]), each resolved at once by a small analyzer run
 * over its input, so a chain of N aliases needs no N analyzer iterations and no alias expression is
 * ever copied:
 * {{{
 *   Project [s1 + 1 AS x, x * 2 AS y, x + s3]
 *   +- t1
 *   =>
 *   Project [x, (x * 2) AS y, (cast(x as double) + s3) AS (lateralAliasReference(x) + s3)]
 *   +- Project [s1, s2, s3, (s1 + 1) AS x]                                       level 0
 *      +- t1
 * }}}
 * Golden: lateral_alias_drawings.sql: SELECT s1 + 1 AS x, x * 2 AS y, x + s3 FROM t1
 * Only aliases a later item uses get a level: `y` is computed in the list itself. An unaliased
 * item is named as Spark's native support names it.
 * The aliases are computed under their own names, as Spark's native support builds them, unless
 * that could capture a name the list leaves to Spark ([[privateCopy]], [[ComputedNames]]). None
 * when a level does not resolve as a projection (or window functions over one): an aggregate or a
 * generator would change what the level's rows are, so such aliases are left to Spark's native
 * support.
 */
private[lca] final class AliasMaterialization(session: SparkSession, resolver: Resolver) {

  /**
   * `input` with Projects computing the aliases `which` of `binding`, and the [[Substitution]] that
   * reads them. In a projection's list longer than `nativeDepth`, short plain chains may be folded
   * into their users ([[ChainFolding]]); see [[ListKind]]. A chain deeper than `maxDepth` levels
   * fails with COLSEM_LATERAL_ALIAS_TOO_DEEP. start: the aliases already computed below `input` (a
   * WHERE's, below its Filter), whose names and folding the new levels keep.
   */
  def materialize(
      binding: LateralAliasBinding,
      input: LogicalPlan,
      which: Set[Int],
      list: ListKind,
      nativeDepth: Int,
      maxDepth: Int,
      start: Option[Substitution] = None): Option[(LogicalPlan, Substitution)] = {
    val names = start.fold[ComputedNames](
      if (list == ListKind.Aggregate || shadowsOtherNames(binding, which)) ComputedNames.Private
      else ComputedNames.Own)(_.names)
    // The items' count bounds the levels' (each item at most one level deeper than the ones it
    // uses). A subquery names its alias's column, so that alias is never folded.
    val folded =
      if (start.isEmpty && list == ListKind.Projection && binding.items.size > nativeDepth) {
        ChainFolding.folded(session, binding, which) --
          binding.inSubqueries.values.flatMap(_.values)
      } else {
        start.fold(Set.empty[Int])(_.folded)
      }
    val kept = which -- folded
    val level = binding.levels(kept, folded)
    val levels = kept.toSeq.groupBy(level).toSeq.sortBy(_._1)
    if (levels.size > maxDepth) {
      val deepest = which.maxBy(level)
      throw ColsemErrors.lateralAliasTooDeep(levels.size, maxDepth, binding.items(deepest).origin)
    }
    // The input's hidden columns, the same under every level (a level's lookup walks all below it).
    val hidden = input.metadataOutput.filterNot(input.outputSet.contains)
    val initial: Option[(LogicalPlan, Substitution)] =
      Some((
        input,
        start.getOrElse(Substitution(binding, resolver, Map.empty, folded, names))))
    levels.foldLeft(initial) {
      case (Some((below, computedBelow)), (_, indices)) =>
        val ordered = indices.sorted
        val reading =
          computedBelow.readingFoldedInLevel(ordered.map((_, AliasReading.ByAttribute)))
        val pending = ordered.map { i =>
          val item = reading.substitute(i, binding.items(i)).asInstanceOf[NamedExpression]
          if (names == ComputedNames.Private) privateCopy(item) else item
        }
        for {
          (next, attributes, found) <- resolveLevel(pending, below, hidden)
          rest <- resolveFoldedValues(reading.foldedValues -- found.keySet, below, hidden)
        } yield (next, reading.afterLevel(ordered, attributes, found ++ rest))
      case (None, _) => None
    }
  }

  /**
   * Whether a computed alias could capture a name the list leaves to Spark, which must see the
   * FROM input only (or an outer query): a plain name, a lambda variable or a candidate that is
   * no earlier alias, with the alias's name; or any subquery, whose names may reach out to the
   * list's input.
   */
  private def shadowsOtherNames(binding: LateralAliasBinding, which: Set[Int]): Boolean = {
    val items = binding.items
    def leftToSpark(i: Int, c: LateralAliasCandidate): Boolean = binding.meaning((i, c)) match {
      case Left(e) => !e.resolved
      case Right(_) => false
    }
    val names = items.indices.flatMap { i =>
      items(i).collect {
        case u: UnresolvedAttribute => u.nameParts.head
        case v: UnresolvedNamedLambdaVariable => v.nameParts.head
        case c: LateralAliasCandidate if leftToSpark(i, c) => c.nameParts.head
      }
    }
    items.exists(_.exists(_.isInstanceOf[SubqueryExpression])) || which.exists(j =>
      items(j) match {
        case a: Alias => names.exists(name => resolver(name, a.name))
        case _ => false
      })
  }

  /** An alias computed below its SELECT list, under a name of its own and a new expression id:
   *  under the alias's name it would be visible to the names the list leaves to Spark, which must
   *  see the FROM input only (in an aggregate list, `SELECT k AS a, sum(a), a + 1 ... GROUP BY k`
   *  must read `a + 1` per group; in a plain list, the forward reference in `SELECT y + 1 AS x,
   *  k AS y` must stay UNRESOLVED_COLUMN). References to the copy are by attribute, named as
   *  written ([[Substitution.value]], [[Substitution.output]]). */
  private def privateCopy(item: NamedExpression): NamedExpression = item match {
    case a: Alias => Alias(a.child, ComputedAliases.PrivatePrefix + a.name)()
    case other => other.newInstance()
  }

  /**
   * The folded aliases' values a level reads that its resolved items do not give back (a leaf,
   * which [[FoldedValue.hold]] leaves bare), resolved in one analyzer run over the level's input,
   * as items of their own; a resolved one is its own value. None when one does not resolve (the
   * level would not either).
   */
  private def resolveFoldedValues(
      values: Map[Int, Expression],
      below: LogicalPlan,
      hidden: Seq[Attribute]): Option[Map[Int, Expression]] = {
    val bare = values.map { case (j, v) => j -> FoldedValue.strip(v) }
    val (resolved, pending) = bare.partition(_._2.resolved)
    if (pending.isEmpty) Some(resolved)
    else {
      val (indices, unresolved) = pending.toSeq.sortBy(_._1).unzip
      val items = unresolved.zip(indices).map { case (v, j) => Alias(v, s"folded$j")() }
      inputTries(below, hidden).iterator.map { inputs =>
        val relation = LocalRelation(inputs)
        session.sessionState.analyzer.execute(Project(items, relation)) match {
          case analyzed @ Project(items, r)
              if (r eq relation) && analyzed.resolved && items.size == indices.size =>
            Some(resolved ++ indices.zip(items.map { case a: Alias => a.child; case e => e }))
          case _ => None
        }
      }.collectFirst { case Some(values) => values }
    }
  }

  /** The input columns a level is resolved over: its input's output, then (a second try) with
   *  the input's hidden columns too. */
  private def inputTries(below: LogicalPlan, hidden: Seq[Attribute]): Seq[Seq[Attribute]] =
    if (hidden.isEmpty) Seq(below.output) else Seq(below.output, below.output ++ hidden)

  /**
   * One level: `below` with the items added to its output, resolved at once with the session's
   * analyzer, and the items' attributes. None unless every item resolves as a projection, or as
   * window functions over one (a window alias must not send the whole list to the native path,
   * which refuses a reference inside a window). A name only the input's hidden columns have
   * (`t2.k` over `JOIN ... USING (k)`, a file's `_metadata`) resolves in a second try that lists
   * them; Spark's AddMetadataColumns then exposes them from the input, as it does for the list.
   */
  private def resolveLevel(
      items: Seq[NamedExpression],
      below: LogicalPlan,
      hidden: Seq[Attribute]): Option[(LogicalPlan, Seq[Attribute], Map[Int, Expression])] = {
    inputTries(below, hidden).iterator.map(resolveLevelOver(items, below, _)).collectFirst {
      case Some(level) => level
    }
  }

  private def resolveLevelOver(
      items: Seq[NamedExpression],
      below: LogicalPlan,
      inputs: Seq[Attribute]): Option[(LogicalPlan, Seq[Attribute], Map[Int, Expression])] = {
    val relation = LocalRelation(inputs)
    // The items alone first: the analyzer then works on the level's new columns only, not on the
    // columns it passes through (as many as the levels below it: quadratic in a long chain).
    session.sessionState.analyzer.execute(Project(items, relation)) match {
      case analyzed @ Project(_, r)
          if (r eq relation) && analyzed.resolved && analyzed.projectList.size == items.size =>
        FoldedValue.unwrap(analyzed) match {
          case (Project(resolvedItems, _), values) => Some((
              Project(below.output ++ resolvedItems, below),
              resolvedItems.map(_.toAttribute),
              values))
          case _ => None
        }
      case _ => resolveWithPassThrough(items, below, relation)
    }
  }

  /** The level analyzed with the columns it passes through: window functions become a Window
   *  under a Project that must list them. */
  private def resolveWithPassThrough(
      items: Seq[NamedExpression],
      below: LogicalPlan,
      relation: LocalRelation): Option[(LogicalPlan, Seq[Attribute], Map[Int, Expression])] = {
    val analyzed = session.sessionState.analyzer.execute(Project(below.output ++ items, relation))
    def projectionOrWindow(node: LogicalPlan): Boolean = node match {
      case _: Project | _: Window => true
      case r => r eq relation
    }
    if (analyzed.resolved && analyzed.output.size == below.output.size + items.size &&
        !analyzed.exists(node => !projectionOrWindow(node))) {
      val (unwrapped, values) = FoldedValue.unwrap(analyzed)
      val level = unwrapped.transformUp { case r: LocalRelation if r eq relation => below }
      Some((level, analyzed.output.drop(below.output.size), values))
    } else {
      None
    }
  }
}
